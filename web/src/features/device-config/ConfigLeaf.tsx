import { UndoOutlined } from '@ant-design/icons';
import { Button, Flex, Form, Input, InputNumber, Select, Switch, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { ConfigValueField } from './config-fields';
import { isUnset } from './config-fields';
import { useFormContext } from './config-form-context';
import { fieldLabel, optionLabel } from './config-labels';
import type { FormName } from './config-problems';
import { errorsAt } from './config-problems';

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
export function useIsSet(name: FormName): boolean {
  const form = Form.useFormInstance();
  return !isUnset(Form.useWatch(name, { form, preserve: true }));
}

/** In patch mode, takes a field out of the change again. */
export function UndoButton({ field, name }: { field: ConfigValueField; name: FormName }) {
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
export function Leaf({
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
