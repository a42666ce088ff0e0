import type { TLoginPending, TLoginResult, TLoginStep } from '@blrms/contracts';
import {
  Suspense,
  lazy,
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type KeyboardEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import {
  forgetSessionEnd,
  getRememberedUsername,
  rememberUsername,
  sessionEndReason,
  startSession,
} from '../../api/session';
import { sysApi } from '../../api/sys';
import { SESSION_KEYS } from '../../shared/storage';
import { useSettings } from '../../app/settings/settings-store';
import { Alert, Button, Field, Spinner, required, useFormState } from './controls';
import { LanguageMenu } from './LanguageMenu';
import { PhoneLoginForm } from './PhoneLoginForm';
import { SsoButtons } from './SsoButtons';
import { useCaptcha } from './use-captcha';
import './login-page.css';

// Only users with two-factor login need it: a chunk of its own keeps the sign-in route light.
const TwoFactorStep = lazy(() => import('./TwoFactorStep'));

const isPending = (step: TLoginStep): step is TLoginPending => 'twoFactor' in step;

/** `multiDepart` 2: the user belongs to several departments and picks one in the console. */
const MULTI_DEPART = 2;

type Tab = 'account' | 'phone';
const TABS: readonly Tab[] = ['account', 'phone'];

type Props = {
  /** Called once, when the user first focuses the form: time to fetch what comes after login. */
  onUserIntent?: () => void;
  /** Opens another page of the console (registration, password reset) without a reload. */
  onNavigate: (path: string) => void;
};

/**
 * The sign-in page. Plain React and CSS, no component library: it is the first page most visitors
 * load, and the console (antd and the rest) loads after it, prefetched from the first focus on the
 * form. A successful login stores the session; whoever shows the page (main.tsx, or the console's
 * router after a logout) then opens the page the user was going to.
 */
export default function LoginPage({ onUserIntent, onNavigate }: Props) {
  const { t } = useTranslation();
  const { primaryColor, colorWeak } = useSettings();
  const intentSignalled = useRef(false);
  const remembered = getRememberedUsername();
  const captcha = useCaptcha();
  // The server sends no image when it runs without captchas (CAPTCHA=off): no field to fill.
  const captchaOff = captcha.image === '';
  const form = useFormState({ username: remembered ?? '', password: '', captcha: '' }, () => ({
    username: [required(t('login.usernameRequired'), true)],
    password: [required(t('login.passwordRequired'))],
    captcha: captchaOff ? [] : [required(t('login.captchaRequired'))],
  }));
  const [remember, setRemember] = useState(remembered !== null);
  // Why the last session ended (a frozen account, say) shows, across the reload that follows,
  // until the user types or logs in.
  const [error, setError] = useState<string | null>(sessionEndReason);
  const [submitting, setSubmitting] = useState(false);
  const [tab, setTab] = useState<Tab>('account');
  const [pending, setPending] = useState<TLoginPending | null>(null);
  const tabRefs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});

  useEffect(() => {
    document.title = t('app.title');
  }, [t]);

  // Before sign-in the console's root, which follows this setting, is not there yet.
  useEffect(() => {
    document.documentElement.classList.toggle('color-weak', colorWeak);
  }, [colorWeak]);

  const signalIntent = () => {
    if (intentSignalled.current) return;
    intentSignalled.current = true;
    onUserIntent?.();
  };

  const loggedIn = (result: TLoginResult) => {
    if (result.multiDepart === MULTI_DEPART) sessionStorage.setItem(SESSION_KEYS.chooseDepart, '1');
    forgetSessionEnd();
    // Last: storing the session is what takes the user on to the page they were going to.
    startSession(result);
  };

  const edit = (name: 'username' | 'password' | 'captcha', value: string) => {
    forgetSessionEnd();
    setError(null);
    form.set(name, value);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || !form.validate()) return;
    setError(null);
    setSubmitting(true);
    const { username, password, captcha: code } = form.values;
    try {
      const step = await sysApi.login({
        username: username.trim(),
        password,
        ...(captchaOff ? {} : { captcha: code, checkKey: captcha.key }),
      });
      rememberUsername(remember ? username.trim() : null);
      if (isPending(step)) {
        setPending(step);
        setSubmitting(false);
      } else {
        // The button keeps spinning until the console, opening now, replaces this page.
        loggedIn(step);
      }
    } catch (e) {
      setSubmitting(false);
      // The server's message (wrong password, locked account) is in the user's language.
      setError(e instanceof ApiError && e.message ? e.message : t('login.failed'));
      if (!captchaOff) {
        // A captcha is single use, even when the password was wrong.
        form.set('captcha', '');
        captcha.refresh();
      }
    }
  };

  const cancelSecondStep = () => {
    setPending(null);
    form.set('password', '');
    if (!captchaOff) {
      form.set('captcha', '');
      captcha.refresh();
    }
  };

  const onTabKey = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    const next = tab === 'account' ? 'phone' : 'account';
    setTab(next);
    tabRefs.current[next]?.focus();
  };

  const link = (path: string, testId: string, label: string) => (
    <a
      href={path}
      data-testid={testId}
      onClick={(event) => {
        event.preventDefault();
        onNavigate(path);
      }}
    >
      {label}
    </a>
  );

  return (
    <div
      className="login-page"
      data-testid="login-page"
      style={{ ['--signin-primary' as string]: primaryColor }}
    >
      <div className="login-page__lang">
        <LanguageMenu />
      </div>
      <main className="login-page__main">
        <header className="login-page__header">
          <img src="/logo.svg" alt="" className="login-page__logo" />
          <h1 className="login-page__title">{t('app.title')}</h1>
        </header>
        <p className="login-page__desc">{t('app.description')}</p>
        {pending && (
          <Suspense fallback={<Spinner large />}>
            <TwoFactorStep pending={pending} onLoggedIn={loggedIn} onCancel={cancelSecondStep} />
          </Suspense>
        )}
        {!pending && (
          <div className="signin-tabs" role="tablist" onKeyDown={onTabKey}>
            {TABS.map((key) => (
              <button
                key={key}
                ref={(button) => {
                  tabRefs.current[key] = button;
                }}
                type="button"
                role="tab"
                id={`signin-tab-${key}`}
                aria-selected={tab === key}
                aria-controls={`signin-panel-${key}`}
                tabIndex={tab === key ? 0 : -1}
                className="signin-tabs__tab"
                onClick={() => setTab(key)}
              >
                <span data-testid={`login-tab-${key}`}>
                  {key === 'account' ? t('login.tabAccount') : t('phoneLogin.tab')}
                </span>
              </button>
            ))}
          </div>
        )}
        {tab === 'phone' && !pending && (
          <div
            id="signin-panel-phone"
            role="tabpanel"
            aria-labelledby="signin-tab-phone"
            onFocus={signalIntent}
          >
            <PhoneLoginForm
              onStep={(step) => (isPending(step) ? setPending(step) : loggedIn(step))}
            />
          </div>
        )}
        <form
          id="signin-panel-account"
          role="tabpanel"
          aria-labelledby="signin-tab-account"
          hidden={tab !== 'account' || pending !== null}
          noValidate
          onSubmit={(event) => void submit(event)}
          onFocus={signalIntent}
        >
          {error && (
            <Alert kind="error" testId="login-error">
              {error}
            </Alert>
          )}
          <Field
            label={t('login.username')}
            icon="user"
            value={form.values.username}
            onChange={(value) => edit('username', value)}
            error={form.error('username')}
            inputRef={form.ref('username')}
            autoComplete="username"
            testId="login-username"
          />
          <Field
            label={t('login.password')}
            icon="lock"
            type="password"
            value={form.values.password}
            onChange={(value) => edit('password', value)}
            error={form.error('password')}
            inputRef={form.ref('password')}
            autoComplete="current-password"
            testId="login-password"
          />
          {!captchaOff && (
            <div className="login-page__captcha" data-testid="login-captcha-row">
              <Field
                label={t('login.captcha')}
                icon="safety"
                value={form.values.captcha}
                onChange={(value) => edit('captcha', value)}
                error={form.error('captcha')}
                inputRef={form.ref('captcha')}
                autoComplete="off"
                maxLength={16}
                testId="login-captcha"
              />
              <button
                type="button"
                className="login-page__captcha-image"
                onClick={captcha.refresh}
                title={t('login.captchaRefresh')}
                aria-label={t('login.captchaRefresh')}
                data-testid="login-captcha-image"
              >
                {captcha.image ? (
                  <img src={captcha.image} alt={t('login.captchaAlt')} />
                ) : captcha.failed ? (
                  <span className="login-page__captcha-failed">{t('login.captchaFailed')}</span>
                ) : (
                  <Spinner />
                )}
              </button>
            </div>
          )}
          <label className="signin-checkbox">
            <input
              type="checkbox"
              checked={remember}
              onChange={(event) => setRemember(event.target.checked)}
              data-testid="login-remember"
            />
            <span>{t('login.remember')}</span>
          </label>
          <Button kind="primary" type="submit" loading={submitting} testId="login-submit">
            {t('login.submit')}
          </Button>
        </form>
        <SsoButtons onError={setError} />
        <div className="login-page__links">
          {link('/user/alteration', 'login-forgot', t('phoneLogin.forgot'))}
          {link('/user/register', 'login-register', t('phoneLogin.register'))}
        </div>
        <p className="login-page__footer">{t('login.series')}</p>
      </main>
    </div>
  );
}
