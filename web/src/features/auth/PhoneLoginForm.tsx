import { MobileOutlined } from '@ant-design/icons';
import type { TLoginStep } from '@blrms/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { accountApi } from '../../api/account';
import { ApiError } from '../../api/errors';
import { CodeField } from '../../shared/account/CodeField';
import { PHONE_PATTERN } from '@blrms/contracts/constants';

type PhoneForm = { mobile: string; captcha: string };

/**
 * The phone tab of the login page: an SMS code instead of the password (POST /sys/phoneLogin).
 * The code replaces the password only: a user with a second factor still gets its challenge.
 */
export function PhoneLoginForm({ onStep }: { onStep: (step: TLoginStep) => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PhoneForm>();
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const login = useMutation({
    mutationFn: (values: PhoneForm) => accountApi.phoneLogin(values),
    onSuccess: onStep,
    onError: (e) => setError(e instanceof ApiError && e.message ? e.message : t('login.failed')),
  });

  const sendCode = async () => {
    await form.validateFields(['mobile']);
    setError(null);
    try {
      const { message } = await accountApi.sms({
        mobile: form.getFieldValue('mobile'),
        smsmode: '0',
      });
      setNotice(message);
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : t('login.failed'));
      throw e;
    }
  };

  return (
    <Form<PhoneForm>
      form={form}
      size="large"
      onFinish={(values) => {
        setError(null);
        login.mutate(values);
      }}
      onValuesChange={() => setError(null)}
      data-testid="phone-login-form"
    >
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          className="login-page__error"
          data-testid="phone-login-error"
        />
      )}
      {notice && !error && (
        <Alert type="info" showIcon message={notice} className="login-page__error" />
      )}
      <Form.Item
        name="mobile"
        rules={[
          { required: true, message: t('phoneLogin.mobileRequired') },
          { pattern: PHONE_PATTERN, message: t('account.phoneRule') },
        ]}
      >
        <Input
          prefix={<MobileOutlined />}
          placeholder={t('phoneLogin.mobile')}
          autoComplete="tel"
          inputMode="tel"
          maxLength={11}
          data-testid="phone-login-mobile"
        />
      </Form.Item>
      <CodeField
        name="captcha"
        placeholder={t('phoneLogin.code')}
        required={{ required: true, message: t('phoneLogin.codeRequired') }}
        send={sendCode}
        className="login-page__captcha"
        testId="phone-login-code"
        sendTestId="phone-login-send"
      />
      <Button
        type="primary"
        htmlType="submit"
        block
        loading={login.isPending}
        data-testid="phone-login-submit"
      >
        {t('login.submit')}
      </Button>
    </Form>
  );
}
