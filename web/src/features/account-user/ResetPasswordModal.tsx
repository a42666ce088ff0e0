import { ModalForm, ProFormText } from '@ant-design/pro-components';
import { ZAdminChangePassword, type TAdminChangePassword, type TAdminUser } from '@blrms/contracts';
import { Alert, Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';
import { submitForm } from '../../shared/field-errors';
import { generatePassword } from './generate-password';

type Values = { password: string; confirmpassword: string };

type Props = {
  user: TAdminUser | null;
  onClose: () => void;
  onSubmit: (body: TAdminChangePassword) => Promise<unknown>;
};

/** An administrator types or generates a new password; the user's sessions end. */
export function ResetPasswordModal({ user, onClose, onSubmit }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const fill = () => {
    const password = generatePassword();
    form.setFieldsValue({ password, confirmpassword: password });
  };
  return (
    <ModalForm<Values>
      key={user?.id ?? 'none'}
      form={form}
      title={t('userAdmin.resetPasswordOf', { username: user?.username ?? '' })}
      open={user !== null}
      width={460}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      onFinish={async (values) => {
        if (!user) return false;
        if (!(await submitForm(form, () => onSubmit({ username: user.username, ...values })))) {
          return false;
        }
        onClose();
        return true;
      }}
      data-testid="reset-password-form"
    >
      <Alert
        type="info"
        showIcon
        message={t('userAdmin.resetPasswordHint')}
        style={{ marginBottom: 16 }}
      />
      <ProFormText
        name="password"
        label={t('userAdmin.newPassword')}
        rules={zodRules(ZAdminChangePassword, 'password', {
          required: t('userAdmin.passwordRequired'),
          minLength: () => t('userAdmin.passwordMin'),
        })}
        fieldProps={{
          id: 'reset-password',
          autoComplete: 'new-password',
          addonAfter: (
            <Button type="link" size="small" onClick={fill} data-testid="reset-generate">
              {t('userAdmin.generate')}
            </Button>
          ),
        }}
      />
      <ProFormText
        name="confirmpassword"
        label={t('userAdmin.confirmPassword')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('userAdmin.passwordRequired') },
          ({ getFieldValue }) => ({
            validator: (_, value) =>
              !value || value === getFieldValue('password')
                ? Promise.resolve()
                : Promise.reject(new Error(t('userAdmin.passwordMismatch'))),
          }),
        ]}
        fieldProps={{ id: 'reset-confirm', autoComplete: 'new-password' }}
      />
    </ModalForm>
  );
}
