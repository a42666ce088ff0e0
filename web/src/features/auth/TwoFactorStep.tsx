import type {
  TLoginPending,
  TLoginResult,
  TTwoFactorLoginResult,
  TTwoFactorSetup,
} from '@blrms/contracts';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { TWO_FACTOR_NS } from '../../app/i18n/two-factor';
import { ApiError } from '../../api/errors';
import { sysApi } from '../../api/sys';
import { copyText } from '../../shared/clipboard';
import { Alert, Button, Field, Spinner, required, useFormState } from './controls';
import { Icon } from './icons';

/**
 * The second login step, shown after a correct password: the code of the authenticator app (or a
 * recovery code), or, for a user who must use two-factor login and has not set it up, the
 * enrolment (QR code, first code, recovery codes) before any session exists. Loaded on demand so
 * that the sign-in route stays light.
 */
export default function TwoFactorStep({
  pending,
  onLoggedIn,
  onCancel,
}: {
  pending: TLoginPending;
  onLoggedIn: (result: TLoginResult) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation(TWO_FACTOR_NS);
  const { t: tApp } = useTranslation();
  const enrol = pending.twoFactor === 'enrol';
  const form = useFormState({ code: '' }, () => ({
    code: [required(enrol ? t('codeRequired') : t('loginCodeRequired'), true)],
  }));
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [enrolled, setEnrolled] = useState<TTwoFactorLoginResult | null>(null);
  const [setup, setSetup] = useState<TTwoFactorSetup | null>(null);
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!enrol) return;
    let current = true;
    sysApi.twoFactorLoginSetup(pending.challenge).then(
      (answer) => current && setSetup(answer),
      (e: unknown) =>
        current && setError(e instanceof ApiError && e.message ? e.message : tApp('login.failed')),
    );
    return () => {
      current = false;
    };
  }, [enrol, pending.challenge, tApp]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || !form.validate()) return;
    setError(null);
    setSubmitting(true);
    try {
      const result = await sysApi.twoFactorLogin({
        challenge: pending.challenge,
        code: form.values.code.trim(),
      });
      if (result.recoveryCodes) setEnrolled(result);
      else onLoggedIn(result);
    } catch (e) {
      setError(e instanceof ApiError && e.message ? e.message : tApp('login.failed'));
      form.set('code', '');
    } finally {
      setSubmitting(false);
    }
  };

  if (enrolled) {
    return (
      <div data-testid="two-factor-recovery">
        <h4 className="signin-heading">{t('recoveryTitle')}</h4>
        <p className="signin-secondary">{t('recoveryIntro')}</p>
        <pre className="login-page__recovery" data-testid="two-factor-recovery-codes">
          {enrolled.recoveryCodes?.join('\n')}
        </pre>
        <Button kind="primary" onClick={() => onLoggedIn(enrolled)} testId="two-factor-continue">
          {t('continue')}
        </Button>
      </div>
    );
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} data-testid="two-factor-step">
      <h4 className="signin-heading">{enrol ? t('enrolTitle') : t('loginTitle')}</h4>
      <p className="signin-secondary">{enrol ? t('enrolIntro') : t('loginIntro')}</p>
      {enrol && (
        <div className="login-page__enrol">
          {setup ? (
            <>
              <p>{t('scan')}</p>
              <img src={setup.qrCode} width={180} height={180} alt="QR" />
              <p>
                {t('secret')}: <code data-testid="two-factor-secret">{setup.secret}</code>
                <button
                  type="button"
                  className="signin-copy"
                  aria-label={tApp(copied ? 'common.copied' : 'common.copy')}
                  title={tApp(copied ? 'common.copied' : 'common.copy')}
                  onClick={() => void copyText(setup.secret).then(setCopied)}
                >
                  <Icon name={copied ? 'check' : 'copy'} />
                </button>
              </p>
            </>
          ) : (
            !error && <Spinner large />
          )}
        </div>
      )}
      {error && (
        <Alert kind="error" testId="two-factor-error">
          {error}
        </Alert>
      )}
      <Field
        label={enrol ? t('code') : t('loginCode')}
        icon="safety"
        value={form.values.code}
        onChange={(value) => {
          setError(null);
          form.set('code', value);
        }}
        error={form.error('code')}
        inputRef={form.ref('code')}
        autoComplete="one-time-code"
        autoFocus
        maxLength={11}
        testId="two-factor-code"
      />
      <Button kind="primary" type="submit" loading={submitting} testId="two-factor-submit">
        {enrol ? t('confirm') : t('verify')}
      </Button>
      <Button kind="link" onClick={onCancel} testId="two-factor-back">
        {t('back')}
      </Button>
    </form>
  );
}
