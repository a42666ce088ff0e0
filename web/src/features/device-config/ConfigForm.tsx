import type { TDeviceSeries } from '@blrms/contracts';
import type { FormInstance } from 'antd';
import { Card, Form } from 'antd';
import type { ReactNode } from 'react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { ConfigField } from './config-fields';
import {
  configFields,
  formValuesOf,
  isKeptSecret,
  patchOf,
  valueAt,
  valueFields,
} from './config-fields';
import type { ConfigFormMode, FormContext, Values } from './config-form-context';
import { ConfigFormContext, grid, WIDE } from './config-form-context';
import { fieldLabel } from './config-labels';
import type { FormName } from './config-problems';
import { configProblems, patchProblems } from './config-problems';
import { Leaf } from './ConfigLeaf';
import { ListField } from './ConfigListField';

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
    <ConfigFormContext.Provider value={context}>
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initialValues}
        data-testid="config-form"
      >
        <Fields fields={fields} prefix={[]} />
      </Form>
    </ConfigFormContext.Provider>
  );
}
