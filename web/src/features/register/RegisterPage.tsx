import { MailOutlined, MobileOutlined, UserOutlined } from '@ant-design/icons';
import type { TRegisterRequest } from '@blrms/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { accountApi } from '../../api/account';
import { http } from '../../api/client';
import { ApiError } from '../../api/errors';
import { AccountLayout } from '../../shared/account/AccountLayout';
import { NewPasswordFields } from '../../shared/account/NewPasswordFields';
import { CodeField } from '../../shared/account/CodeField';
import { PHONE_PATTERN } from '@blrms/contracts/constants';
import { LOGIN_PATH } from '../../shared/paths';
import { RegisterSteps } from './RegisterSteps';

export const REGISTER_RESULT_PATH = '/user/register-result';

type RegisterForm = TRegisterRequest;
type CheckedField = 'username' | 'phone' | 'email';

/** Fields of each step, validated before moving on. */
const STEP_FIELDS: (keyof RegisterForm)[][] = [
  ['username', 'phone'],
  ['email', 'emailCode'],
  ['password', 'confirmpassword'],
];

/** A server message `field: rule` names the field; the step that holds it is shown again. */
function fieldOfMessage(text: string): keyof RegisterForm | undefined {
  const field = /^(\w+): /.exec(text)?.[1];
  return STEP_FIELDS.flat().find((f) => f === field);
}

/**
 * Self-registration (spec sections 2 and 5). Username, phone and email are checked against the
 * server while typing; the account is created with the emailed code on the password step.
 */
export default function RegisterPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterForm>();
  const [step, setStep] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  /** The server's duplicate message ('Username already exists!') is the field's error. */
  const notTaken =
    (field: CheckedField): Rule =>
    () => ({
      validateTrigger: 'onBlur',
      async validator(_, value: string | undefined) {
        if (!value) return;
        try {
          await accountApi.registerCheck({ field, value });
        } catch (e) {
          if (e instanceof ApiError && (e.status === 409 || e.status === 429)) {
            throw new Error(e.message);
          }
          // Unreachable server: the registration itself checks again.
        }
      },
    });

  const register = useMutation({
    mutationFn: (values: RegisterForm) => accountApi.register(values),
    onSuccess: ({ result }) => {
      void navigate(
        `${REGISTER_RESULT_PATH}?username=${encodeURIComponent(result.username)}&email=${encodeURIComponent(result.email)}`,
      );
    },
    onError: (e) => {
      const text = e instanceof ApiError && e.message ? e.message : t('register.failed');
      setError(text);
      const field = fieldOfMessage(text);
      const at = field ? STEP_FIELDS.findIndex((fields) => fields.includes(field)) : -1;
      if (field && at >= 0) {
        setStep(at);
        form.setFields([{ name: field, errors: [text.replace(/^\w+: /, '')] }]);
      }
    },
  });

  const next = async () => {
    await form.validateFields(STEP_FIELDS[step]);
    setError(null);
    if (step === 1) {
      // A wrong code is told here, on its own step, not after the password is chosen.
      try {
        await http.post<null>(
          '/sys/user/registerCodeCheck',
          { email: form.getFieldValue('email'), emailCode: form.getFieldValue('emailCode') },
          { silent: true },
        );
      } catch (e) {
        const text = e instanceof ApiError && e.message ? e.message : t('register.failed');
        form.setFields([{ name: 'emailCode', errors: [text] }]);
        throw e;
      }
    }
    setStep((s) => s + 1);
  };

  const sendCode = async () => {
    await form.validateFields(['email']);
    setNotice(null);
    try {
      const { message } = await accountApi.registerEmailCode(form.getFieldValue('email'));
      setNotice(message || t('register.codeSent'));
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : t('register.failed'));
      throw e;
    }
  };

  const required = (label: string): Rule => ({
    required: true,
    whitespace: true,
    message: t('account.required', { field: label }),
  });

  return (
    <AccountLayout title={t('register.title')} testId="register-page">
      <RegisterSteps current={step} />
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          className="account-page__error"
          data-testid="register-error"
          closable
          onClose={() => setError(null)}
        />
      )}
      <Form<RegisterForm>
        form={form}
        size="large"
        onFinish={(values) => {
          setError(null);
          register.mutate(values);
        }}
      >
        <div hidden={step !== 0}>
          <Form.Item
            name="username"
            validateTrigger={['onChange', 'onBlur']}
            rules={[
              required(t('register.username')),
              { pattern: /^[A-Za-z0-9]+$/, message: t('register.usernameRule') },
              { max: 32, message: t('account.max', { n: 32 }) },
              notTaken('username'),
            ]}
          >
            <Input
              prefix={<UserOutlined />}
              placeholder={t('register.username')}
              autoComplete="username"
              data-testid="register-username"
            />
          </Form.Item>
          <Form.Item
            name="phone"
            validateTrigger={['onChange', 'onBlur']}
            rules={[
              required(t('register.phone')),
              { pattern: PHONE_PATTERN, message: t('account.phoneRule') },
              notTaken('phone'),
            ]}
          >
            <Input
              prefix={<MobileOutlined />}
              placeholder={t('register.phone')}
              autoComplete="tel"
              inputMode="tel"
              maxLength={11}
              data-testid="register-phone"
            />
          </Form.Item>
        </div>

        <div hidden={step !== 1}>
          <Form.Item
            name="email"
            validateTrigger={['onChange', 'onBlur']}
            rules={[
              required(t('register.email')),
              { type: 'email', message: t('register.emailRule') },
              { max: 100, message: t('account.max', { n: 100 }) },
              notTaken('email'),
            ]}
          >
            <Input
              prefix={<MailOutlined />}
              placeholder={t('register.email')}
              autoComplete="email"
              data-testid="register-email"
            />
          </Form.Item>
          {notice && step === 1 && (
            <Alert type="success" showIcon message={notice} className="account-page__error" />
          )}
          <CodeField
            name="emailCode"
            placeholder={t('register.emailCode')}
            required={required(t('register.emailCode'))}
            send={sendCode}
            className="account-page__code"
            testId="register-email-code"
            sendTestId="register-send-code"
          />
        </div>

        <div hidden={step !== 2}>
          <NewPasswordFields
            passwordLabel={t('register.password')}
            confirmLabel={t('register.confirmPassword')}
            required={required}
            testIdPrefix="register"
          />
        </div>

        <div className="account-page__actions">
          {step > 0 ? (
            <Button onClick={() => setStep((s) => s - 1)} data-testid="register-previous">
              {t('register.previous')}
            </Button>
          ) : (
            <Link to={LOGIN_PATH} data-testid="register-login-link">
              {t('register.haveAccount')}
            </Link>
          )}
          {/* Keyed apart: reused, the next button would turn into the submit button before its
              click ended. */}
          {step < 2 ? (
            <Button
              key="next"
              type="primary"
              onClick={() => void next().catch(() => undefined)}
              data-testid="register-next"
            >
              {t('register.next')}
            </Button>
          ) : (
            <Button
              key="submit"
              type="primary"
              htmlType="submit"
              loading={register.isPending}
              data-testid="register-submit"
            >
              {t('register.submit')}
            </Button>
          )}
        </div>
      </Form>
    </AccountLayout>
  );
}
