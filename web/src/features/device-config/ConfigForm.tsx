import { DeleteOutlined, PlusOutlined, UndoOutlined } from '@ant-design/icons';
import type { TDeviceSeries } from '@blrms/contracts';
import type { FormInstance } from 'antd';
import {
  Button,
  Card,
  Flex,
  Form,
  Input,
  InputNumber,
  Select,
  Switch,
  Tooltip,
  Typography,
} from 'antd';
import type { TFunction } from 'i18next';
import type { CSSProperties, ReactNode } from 'react';
import { createContext, useContext, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigField, ConfigValueField } from './config-fields';
import {
  configFields,
  formValuesOf,
  isKeptSecret,
  isUnset,
  newListRow,
  patchOf,
  valueAt,
  valueFields,
} from './config-fields';
import { fieldLabel, optionLabel } from './config-labels';
import type { ConfigProblems, FormName } from './config-problems';
import { configProblems, errorsAt, patchProblems } from './config-problems';

export type ConfigFormMode = 'full' | 'patch';
type Values = Record<string, unknown>;

/** What every field of one form needs: the mode and the check of the whole form. */
type FormContext = { mode: ConfigFormMode; problems: () => ConfigProblems };
const Context = createContext<FormContext | null>(null);
const useFormContext = () => useContext(Context)!;

/**
 * Fields flow into as many equal columns as their container fits (a drawer, a modal, a phone),
 * whatever the window's width.
 */
const grid = (minWidth: number): CSSProperties => ({
  display: 'grid',
  gridTemplateColumns: `repeat(auto-fill, minmax(${minWidth}px, 1fr))`,
  columnGap: 16,
});
const WIDE: CSSProperties = { gridColumn: '1 / -1' };

function rangeHint(t: TFunction, field: ConfigValueField): string | undefined {
  if (field.kind === 'number' && field.min !== undefined && field.max !== undefined) {
    return t('deviceConfig.form.range', { min: field.min, max: field.max });
  }
  if ((field.kind === 'text' || field.kind === 'tags') && field.maxLength !== undefined) {
    return t('deviceConfig.form.maxLength', { n: field.maxLength });
  }
  return undefined;
}

/** The input of one field, as the schema types it; in patch mode every input may stay unset. */
function FieldInput({ field, patch, ...rest }: { field: ConfigValueField; patch: boolean }) {
  const { t } = useTranslation();
  // Form.Item passes value/onChange/id through `rest`.
  const unchanged = patch ? t('deviceConfig.form.unchanged') : undefined;
  const testId = `config-input-${field.path}`;
  switch (field.kind) {
    case 'select':
      return (
        <Select
          {...rest}
          allowClear={patch}
          placeholder={unchanged}
          options={field.options.map((value) => ({ value, label: optionLabel(t, field, value) }))}
          data-testid={testId}
        />
      );
    case 'switch':
      // A switch has no "unset": a bulk change picks on or off, or leaves the field out.
      return patch ? (
        <Select
          {...rest}
          allowClear
          placeholder={unchanged}
          options={[
            { value: true, label: t('common.on') },
            { value: false, label: t('common.off') },
          ]}
          data-testid={testId}
        />
      ) : (
        <Switch {...rest} data-testid={testId} />
      );
    case 'number':
      // No min/max on the input: it would silently clamp what was typed instead of saying why.
      return (
        <InputNumber
          {...rest}
          style={{ width: '100%' }}
          placeholder={unchanged ?? rangeHint(t, field)}
          data-testid={testId}
        />
      );
    case 'text':
      // The platform never shows a secret: left empty, it keeps the value the device has.
      return field.password ? (
        <Input.Password
          {...rest}
          maxLength={field.maxLength}
          placeholder={t('deviceConfig.form.secretKeep')}
          autoComplete="new-password"
          data-testid={testId}
        />
      ) : (
        <Input {...rest} maxLength={field.maxLength} placeholder={unchanged} data-testid={testId} />
      );
    case 'tags':
      return (
        <Select
          {...rest}
          mode="tags"
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', '，', ';', ' ']}
          maxCount={field.maxItems}
          allowClear={patch}
          placeholder={unchanged ?? t('deviceConfig.form.tagsPlaceholder')}
          data-testid={testId}
        />
      );
    case 'list':
      return null;
  }
}

/** Whether a patch-mode field is set (part of the change), kept current as the form changes. */
function useIsSet(name: FormName): boolean {
  const form = Form.useFormInstance();
  return !isUnset(Form.useWatch(name, { form, preserve: true }));
}

/** In patch mode, takes a field out of the change again. */
function UndoButton({ field, name }: { field: ConfigValueField; name: FormName }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  return (
    <Button
      type="link"
      size="small"
      icon={<UndoOutlined />}
      onClick={(e) => {
        e.preventDefault();
        form.setFields([{ name, value: undefined, errors: [] }]);
      }}
      style={{ paddingInline: 4, height: 'auto' }}
      data-testid={`config-undo-${field.path}`}
    >
      {t('deviceConfig.form.undo')}
    </Button>
  );
}

/**
 * A field's label. In patch mode a field that is set is marked and can be left unchanged again
 * (fields of list rows go with their list).
 */
function FieldLabel({
  field,
  name,
  inRow,
}: {
  field: ConfigValueField;
  name: FormName;
  inRow: boolean;
}) {
  const { t } = useTranslation();
  const { mode } = useFormContext();
  const isSet = useIsSet(name);
  const label = fieldLabel(t, field);
  if (mode !== 'patch' || inRow || !isSet) return label;
  return (
    <Flex gap={4} align="center">
      <Typography.Text strong>{label}</Typography.Text>
      <UndoButton field={field} name={name} />
    </Flex>
  );
}

/** One field: its label, input and the zod schema's verdict on it. */
function Leaf({
  field,
  name,
  itemName,
}: {
  field: ConfigValueField;
  /** The field's full name path in the form (for its check). */
  name: FormName;
  /** Its name inside a list row, when it is in one (Form.Item names rows relative to the list). */
  itemName?: FormName;
}) {
  const { t } = useTranslation();
  const { mode, problems } = useFormContext();
  const patch = mode === 'patch';
  return (
    <Form.Item
      name={itemName ?? name}
      label={<FieldLabel field={field} name={name} inRow={itemName !== undefined} />}
      tooltip={patch ? undefined : rangeHint(t, field)}
      valuePropName={field.kind === 'switch' && !patch ? 'checked' : 'value'}
      rules={[
        {
          validator: async () => {
            const errors = errorsAt(problems(), name);
            if (errors.length > 0) throw new Error(errors.join('; '));
          },
        },
      ]}
      data-testid={`config-field-${field.path}`}
    >
      <FieldInput field={field} patch={patch} />
    </Form.Item>
  );
}

/** A list of objects (Modbus slaves, input channels): rows to add and remove. */
function ListField({
  field,
  name,
}: {
  field: Extract<ConfigField, { kind: 'list' }>;
  name: FormName;
}) {
  const { t } = useTranslation();
  const { mode } = useFormContext();
  const form = Form.useFormInstance();
  const isSet = useIsSet(name);
  return (
    <Form.List name={name}>
      {(rows, { add, remove }) => (
        <Flex vertical gap={8} data-testid={`config-list-${field.path}`}>
          {mode === 'patch' && (
            <Flex gap={4} align="center">
              <Typography.Text type="secondary">
                {t('deviceConfig.form.listReplaces')}
              </Typography.Text>
              {isSet && <UndoButton field={field} name={name} />}
            </Flex>
          )}
          {rows.length === 0 && (
            <Typography.Text type="secondary">{t('deviceConfig.form.listEmpty')}</Typography.Text>
          )}
          {rows.map((row, index) => (
            <Flex
              key={row.key}
              gap={8}
              align="flex-start"
              className="config-list-row"
              style={{
                border: '1px solid rgba(5, 5, 5, 0.06)',
                borderRadius: 6,
                padding: '8px 12px 0',
              }}
              data-testid={`config-row-${field.path}-${index}`}
            >
              <div style={{ ...grid(100), flex: 1, minWidth: 0 }}>
                {field.item.map((item) =>
                  item.kind === 'section' ? null : (
                    <div key={item.key}>
                      <Leaf
                        field={item}
                        name={[...name, row.name, item.key]}
                        itemName={[row.name, item.key]}
                      />
                    </div>
                  ),
                )}
              </div>
              <Tooltip title={t('deviceConfig.form.removeRow')}>
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('deviceConfig.form.removeRow')}
                  onClick={() => remove(row.name)}
                  style={{ marginTop: 30 }}
                  data-testid={`config-remove-${field.path}-${index}`}
                />
              </Tooltip>
            </Flex>
          ))}
          <Button
            type="dashed"
            icon={<PlusOutlined />}
            disabled={field.maxItems !== undefined && rows.length >= field.maxItems}
            onClick={() => {
              const current = form.getFieldValue(name) as unknown[] | undefined;
              add(newListRow(field.item, current ?? []));
            }}
            data-testid={`config-add-${field.path}`}
          >
            {field.maxItems !== undefined
              ? t('deviceConfig.form.addRowMax', { count: rows.length, max: field.maxItems })
              : t('deviceConfig.form.addRow')}
          </Button>
        </Flex>
      )}
    </Form.List>
  );
}

function Fields({ fields, prefix }: { fields: ConfigField[]; prefix: FormName }) {
  const { t } = useTranslation();
  const leaves = fields.filter((f) => f.kind !== 'section' && f.kind !== 'list');
  const blocks = fields.filter((f) => f.kind === 'section' || f.kind === 'list');
  const leafRow = leaves.length > 0 && (
    <div style={grid(200)}>
      {leaves.map((f) => (
        <div key={f.key} style={f.kind === 'tags' ? WIDE : undefined}>
          <Leaf field={f} name={[...prefix, f.key]} />
        </div>
      ))}
    </div>
  );
  const card = (key: string, title: ReactNode, body: ReactNode) => (
    <Card
      key={key}
      size="small"
      title={title}
      style={{ marginBottom: 16 }}
      data-testid={`config-section-${key}`}
    >
      {body}
    </Card>
  );
  return (
    <>
      {prefix.length === 0 && leafRow
        ? card('general', t('deviceConfig.form.general'), leafRow)
        : leafRow}
      {blocks.map((f) =>
        f.kind === 'section'
          ? card(f.path, fieldLabel(t, f), <Fields fields={f.fields} prefix={[...prefix, f.key]} />)
          : card(f.path, fieldLabel(t, f), <ListField field={f} name={[...prefix, f.key]} />),
      )}
    </>
  );
}

/**
 * A series' configuration as a form, rendered from its schema. `full` edits a whole
 * configuration (prefilled by the caller); `patch` edits a change (empty, or prefilled with what
 * is known), and the fields that have a value make its merge patch (`patchOf`). Secrets are never
 * prefilled: left empty, they keep their value. Each field is checked against the contracts' zod
 * schema as it changes and again on submit.
 */
export function ConfigForm({
  series,
  form,
  mode,
  initialValues,
}: {
  series: TDeviceSeries;
  form: FormInstance<Values>;
  mode: ConfigFormMode;
  initialValues?: Values;
}) {
  const { t } = useTranslation();
  const fields = configFields(series);
  const context = useMemo<FormContext>(
    () => ({
      mode,
      problems: () => {
        const values = form.getFieldsValue(true) as Values;
        if (mode === 'patch') return patchProblems(t, series, patchOf(fields, values));
        const problems = configProblems(t, series, formValuesOf(fields, values, {}));
        // A secret left empty keeps the device's value: there is nothing of it to check.
        const kept = valueFields(fields)
          .filter((f) => isKeptSecret(f, valueAt(values, f.path)))
          .map((f) => f.path);
        return {
          ...problems,
          fields: problems.fields.filter((p) => !kept.includes(p.name.join('.'))),
        };
      },
    }),
    [mode, form, t, series, fields],
  );

  return (
    <Context.Provider value={context}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initialValues}
        data-testid="config-form"
      >
        <Fields fields={fields} prefix={[]} />
      </Form>
    </Context.Provider>
  );
}
