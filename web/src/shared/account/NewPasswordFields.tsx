import { LockOutlined } from '@ant-design/icons';
import { PASSWORD_MIN_LENGTH } from '@blrms/contracts';
import { Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { PasswordStrengthMeter } from './PasswordStrengthMeter';

/**
 * A new password (`password`, with its strength shown as it is typed) and its repetition
 * (`confirmpassword`, which must match), for the form this is rendered in.
 */
export function NewPasswordFields({
  passwordLabel,
  confirmLabel,
  required,
  testIdPrefix,
}: {
  passwordLabel: string;
  confirmLabel: string;
  /** The page's own "required" rule for a field with this label. */
  required: (label: string) => Rule;
  testIdPrefix: string;
}) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const password = Form.useWatch<string | undefined>('password', form);
  const username = Form.useWatch<string | undefined>('username', form);
  return (
    <>
      <Form.Item
        name="password"
        rules={[
          required(passwordLabel),
          {
            min: PASSWORD_MIN_LENGTH,
            message: t('account.passwordRule', { n: PASSWORD_MIN_LENGTH }),
          },
        ]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('account.passwordPlaceholder', { n: PASSWORD_MIN_LENGTH })}
          autoComplete="new-password"
          data-testid={`${testIdPrefix}-password`}
        />
      </Form.Item>
      <PasswordStrengthMeter password={password} username={username} />
      <Form.Item
        name="confirmpassword"
        dependencies={['password']}
        rules={[
          required(confirmLabel),
          ({ getFieldValue }) => ({
            validator: async (_, value: string | undefined) => {
              if (value && value !== getFieldValue('password')) {
                throw new Error(t('account.passwordMismatch'));
              }
            },
          }),
        ]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={confirmLabel}
          autoComplete="new-password"
          data-testid={`${testIdPrefix}-confirm-password`}
        />
      </Form.Item>
    </>
  );
}
