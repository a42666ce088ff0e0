import type { TOnlineField } from '@blrms/contracts';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { FieldInput } from './FieldInput';
import {
  fieldLabel,
  fieldProblem,
  fromFormValue,
  problemMessage,
  type FormValue,
} from './form-fields';

/**
 * A record's fields as form items, in the definition's order, each checked with the contract's
 * rules for its value (the server checks the same, and more: dictionary items, ids, uniqueness).
 * `display` holds the server's texts of the current values (device SN, location and file names).
 */
export function RecordFields({
  fields,
  display = {},
}: {
  fields: readonly TOnlineField[];
  display?: Record<string, string>;
}) {
  const { t, i18n } = useTranslation();
  return fields.map((field) => {
    const label = fieldLabel(field, i18n.language);
    return (
      <Form.Item
        key={field.key}
        name={field.key}
        label={label}
        required={field.required}
        valuePropName={field.type === 'switch' ? 'value' : undefined}
        rules={[
          {
            validator: (_, value: FormValue) => {
              const problem = fieldProblem(field, fromFormValue(field, value));
              return problem
                ? Promise.reject(new Error(problemMessage(problem, label, t)))
                : Promise.resolve();
            },
          },
        ]}
        data-testid={`online-field-${field.key}`}
      >
        <FieldInput field={field} shown={display[field.key]} testId={`online-input-${field.key}`} />
      </Form.Item>
    );
  });
}
