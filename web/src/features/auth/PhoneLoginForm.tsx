import type { TLoginStep } from '@blrms/contracts';
import {
  PHONE_PATTERN,
  VERIFY_CODE_PATTERN,
  VERIFY_CODE_RESEND_SECONDS,
} from '@blrms/contracts/constants';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { accountApi } from '../../api/account';
import { ApiError } from '../../api/errors';
import { Alert, Button, Field, pattern, required, useFormState } from './controls';

/**
 * The phone tab of the login page: an SMS code instead of the password (POST /sys/phoneLogin).
 * The code replaces the password only: a user with a second factor still gets its challenge.
 */
export function PhoneLoginForm({ onStep }: { onStep: (step: TLoginStep) => void }) {
  const { t } = useTranslation();
  const form = useFormState({ mobile: '', captcha: '' }, () => ({
    mobile: [
      required(t('phoneLogin.mobileRequired')),
      pattern(PHONE_PATTERN, t('account.phoneRule')),
    ],
    captcha: [
      required(t('phoneLogin.codeRequired')),
      pattern(VERIFY_CODE_PATTERN, t('account.codeRule')),
    ],
  }));
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [sending, setSending] = useState(false);
  const [resendIn, setResendIn] = useState(0);

  useEffect(() => {
    if (resendIn <= 0) return;
    const timer = window.setTimeout(() => setResendIn((seconds) => seconds - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [resendIn]);

  const failed = (e: unknown) =>
    setError(e instanceof ApiError && e.message ? e.message : t('login.failed'));

  const edit = (name: 'mobile' | 'captcha', value: string) => {
    setError(null);
    form.set(name, value);
  };

  const sendCode = async () => {
    if (!form.validate(['mobile'])) return;
    setError(null);
    setSending(true);
    try {
      const { message } = await accountApi.sms({ mobile: form.values.mobile, smsmode: '0' });
      setNotice(message);
      setResendIn(VERIFY_CODE_RESEND_SECONDS);
    } catch (e) {
      failed(e);
    } finally {
      setSending(false);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || !form.validate()) return;
    setError(null);
    setSubmitting(true);
    try {
      onStep(await accountApi.phoneLogin(form.values));
    } catch (e) {
      failed(e);
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="phone-login-form">
      {error && (
        <Alert kind="error" testId="phone-login-error">
          {error}
        </Alert>
      )}
      {notice && !error && <Alert kind="info">{notice}</Alert>}
      <Field
        label={t('phoneLogin.mobile')}
        icon="mobile"
        type="tel"
        value={form.values.mobile}
        onChange={(value) => edit('mobile', value)}
        error={form.error('mobile')}
        inputRef={form.ref('mobile')}
        autoComplete="tel"
        inputMode="tel"
        maxLength={11}
        testId="phone-login-mobile"
      />
      <div className="login-page__captcha">
        <Field
          label={t('phoneLogin.code')}
          icon="safety"
          value={form.values.captcha}
          onChange={(value) => edit('captcha', value)}
          error={form.error('captcha')}
          inputRef={form.ref('captcha')}
          autoComplete="one-time-code"
          inputMode="numeric"
          maxLength={6}
          testId="phone-login-code"
        />
        <Button
          disabled={resendIn > 0}
          loading={sending}
          onClick={() => void sendCode()}
          testId="phone-login-send"
          className="signin-button--large"
        >
          {resendIn > 0 ? t('account.resendIn', { seconds: resendIn }) : t('account.sendCode')}
        </Button>
      </div>
      <Button kind="primary" type="submit" loading={submitting} testId="phone-login-submit">
        {t('login.submit')}
      </Button>
    </form>
  );
}
