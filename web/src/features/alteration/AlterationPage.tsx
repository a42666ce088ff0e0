import { MailOutlined, MobileOutlined } from '@ant-design/icons';
import type { TPasswordResetRequest, TResetChannel } from '@blrms/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Radio, Result, Steps } from 'antd';
import type { Rule } from 'antd/es/form';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { accountApi } from '../../api/account';
import { ApiError } from '../../api/errors';
import { AccountLayout } from '../../shared/account/AccountLayout';
import { NewPasswordFields } from '../../shared/account/NewPasswordFields';
import { CodeField } from '../../shared/account/CodeField';
import { PHONE_PATTERN } from '@blrms/contracts/constants';
import { LOGIN_PATH } from '../../shared/paths';

type ResetForm = {
  channel: TResetChannel;
  target: string;
  code: string;
  password: string;
  confirmpassword: string;
};

/** Seconds before the page returns to the login page; the spec leaves the length open. */
const COUNTDOWN_SECONDS = 5;

const STEP_FIELDS: (keyof ResetForm)[][] = [
  ['channel', 'target', 'code'],
  ['password', 'confirmpassword'],
];

/**
 * Password reset with a code sent by email or SMS (`/user/alteration`). The server answers the
 * same whether or not the address has an account; the code proves it on the last step.
 */
export default function AlterationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetForm>();
  const [step, setStep] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [seconds, setSeconds] = useState(COUNTDOWN_SECONDS);
  const channel = Form.useWatch('channel', form) ?? 'email';

  useEffect(() => {
    if (step !== 2) return;
    if (seconds <= 0) {
      void navigate(LOGIN_PATH, { replace: true });
      return;
    }
    const timer = window.setTimeout(() => setSeconds((s) => s - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [step, seconds, navigate]);

  const reset = useMutation({
    mutationFn: (values: ResetForm) =>
      accountApi.passwordReset({
        channel: values.channel,
        target: values.target.trim(),
        code: values.code,
        password: values.password,
        confirmpassword: values.confirmpassword,
      } as TPasswordResetRequest),
    onSuccess: () => {
      setError(null);
      setSeconds(COUNTDOWN_SECONDS);
      setStep(2);
    },
    onError: (e) => {
      const text = e instanceof ApiError && e.message ? e.message : t('alteration.failed');
      setError(text);
      // A wrong or dead code is fixed on the first step; a refused password on this one.
      if (!/^(password|confirmpassword): /.test(text)) setStep(0);
    },
  });

  const sendCode = async () => {
    await form.validateFields(['channel', 'target']);
    setNotice(null);
    setError(null);
    try {
      const { message } = await accountApi.resetCode({
        channel: form.getFieldValue('channel'),
        target: form.getFieldValue('target').trim(),
      });
      setNotice(message);
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : t('alteration.failed'));
      throw e;
    }
  };

  const required = (label: string): Rule => ({
    required: true,
    whitespace: true,
    message: t('account.required', { field: label }),
  });
  const targetLabel = channel === 'email' ? t('alteration.email') : t('alteration.phone');

  return (
    <AccountLayout title={t('alteration.title')} testId="alteration-page">
      <Steps
        current={step}
        status={step === 2 ? 'finish' : 'process'}
        size="small"
        labelPlacement="vertical"
        responsive={false}
        className="account-page__steps"
        items={[
          { title: t('alteration.stepVerify') },
          { title: t('alteration.stepPassword') },
          { title: t('alteration.stepDone') },
        ]}
      />
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          className="account-page__error"
          data-testid="alteration-error"
        />
      )}
      {step === 2 ? (
        <div data-testid="alteration-done">
          <Result
            status="success"
            title={t('alteration.doneTitle')}
            subTitle={t('alteration.countdown', { seconds })}
            extra={
              <Link to={LOGIN_PATH}>
                <Button type="primary" size="large" data-testid="alteration-login">
                  {t('alteration.toLogin')}
                </Button>
              </Link>
            }
          />
        </div>
      ) : (
        <Form<ResetForm>
          form={form}
          size="large"
          initialValues={{ channel: 'email' }}
          onFinish={(values) => {
            setError(null);
            reset.mutate(values);
          }}
        >
          <div hidden={step !== 0}>
            <Form.Item name="channel">
              <Radio.Group
                optionType="button"
                buttonStyle="solid"
                onChange={() => form.setFieldsValue({ target: '', code: '' })}
                options={[
                  {
                    value: 'email',
                    label: <span data-testid="alteration-by-email">{t('alteration.byEmail')}</span>,
                  },
                  {
                    value: 'phone',
                    label: <span data-testid="alteration-by-phone">{t('alteration.byPhone')}</span>,
                  },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="target"
              rules={[
                required(targetLabel),
                channel === 'email'
                  ? { type: 'email', message: t('register.emailRule') }
                  : { pattern: PHONE_PATTERN, message: t('account.phoneRule') },
              ]}
            >
              <Input
                prefix={channel === 'email' ? <MailOutlined /> : <MobileOutlined />}
                placeholder={targetLabel}
                autoComplete={channel === 'email' ? 'email' : 'tel'}
                data-testid="alteration-target"
              />
            </Form.Item>
            {notice && (
              <Alert type="info" showIcon message={notice} className="account-page__error" />
            )}
            <CodeField
              name="code"
              placeholder={t('alteration.code')}
              required={required(t('alteration.code'))}
              send={sendCode}
              className="account-page__code"
              testId="alteration-code"
              sendTestId="alteration-send-code"
            />
          </div>

          <div hidden={step !== 1}>
            <NewPasswordFields
              passwordLabel={t('alteration.newPassword')}
              confirmLabel={t('alteration.confirmPassword')}
              required={required}
              testIdPrefix="alteration"
            />
          </div>

          <div className="account-page__actions">
            {step > 0 ? (
              <Button onClick={() => setStep(0)} data-testid="alteration-previous">
                {t('register.previous')}
              </Button>
            ) : (
              <Link to={LOGIN_PATH} data-testid="alteration-login-link">
                {t('alteration.backToLogin')}
              </Link>
            )}
            {/* Keyed apart: reused, the next button became the submit button before its click
                ended, so that click also submitted the empty password step. */}
            {step === 0 ? (
              <Button
                key="next"
                type="primary"
                data-testid="alteration-next"
                onClick={() =>
                  void form
                    .validateFields(STEP_FIELDS[0])
                    .then(() => {
                      setError(null);
                      setStep(1);
                    })
                    .catch(() => undefined)
                }
              >
                {t('register.next')}
              </Button>
            ) : (
              <Button
                key="submit"
                type="primary"
                htmlType="submit"
                loading={reset.isPending}
                data-testid="alteration-submit"
              >
                {t('alteration.submit')}
              </Button>
            )}
          </div>
        </Form>
      )}
    </AccountLayout>
  );
}
