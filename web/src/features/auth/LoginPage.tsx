import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import type { TLoginPending, TLoginResult, TLoginStep } from '@blrms/contracts';
import { useMutation } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Input, Spin, Tabs, Typography } from 'antd';
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../api/errors';
import {
  forgetSessionEnd,
  getRememberedUsername,
  rememberUsername,
  sessionEndReason,
  startSession,
} from '../../api/session';
import { sysApi } from '../../api/sys';
import { LangSwitch } from '../../shared/LangSwitch';
import { SESSION_KEYS } from '../../shared/storage';
import { PhoneLoginForm } from './PhoneLoginForm';
import { useCaptcha } from './use-captcha';
import './login-page.css';

// Only users with two-factor login need it: a chunk of its own keeps the login route light.
const TwoFactorStep = lazy(() => import('./TwoFactorStep'));

// A chunk of its own: the login route's bundle has a size budget, and most deployments have no SSO.
const SsoButtons = lazy(() => import('./SsoButtons'));

const isPending = (step: TLoginStep): step is TLoginPending => 'twoFactor' in step;

type LoginForm = { username: string; password: string; captcha: string; remember: boolean };

/** `multiDepart` 2: the user belongs to several departments and picks one in the console. */
const MULTI_DEPART = 2;

type Props = {
  /** Called once, when the user first focuses the form: time to fetch what comes after login. */
  onUserIntent?: () => void;
};

export default function LoginPage({ onUserIntent }: Props) {
  const { t } = useTranslation();
  const intentSignalled = useRef(false);
  const [form] = Form.useForm<LoginForm>();
  const captcha = useCaptcha();
  // The server sends no image when it runs without captchas (CAPTCHA=off): no field to fill.
  const captchaOff = captcha.image === '';
  // Why the last session ended (a frozen account, say) shows, across the reload that follows,
  // until the user types or logs in.
  const [error, setError] = useState<string | null>(sessionEndReason);
  const remembered = getRememberedUsername();
  const [tab, setTab] = useState<'account' | 'phone'>('account');
  const [pending, setPending] = useState<TLoginPending | null>(null);

  useEffect(() => {
    document.title = t('app.title');
  }, [t]);

  const signalIntent = () => {
    if (intentSignalled.current) return;
    intentSignalled.current = true;
    onUserIntent?.();
  };

  const loggedIn = (result: TLoginResult) => {
    if (result.multiDepart === MULTI_DEPART) sessionStorage.setItem(SESSION_KEYS.chooseDepart, '1');
    forgetSessionEnd();
    // Last: storing the session re-renders GuestOnly, which takes the user to the redirect target.
    startSession(result);
  };

  const login = useMutation({
    mutationFn: (values: LoginForm) =>
      sysApi.login({
        username: values.username.trim(),
        password: values.password,
        ...(captchaOff ? {} : { captcha: values.captcha, checkKey: captcha.key }),
      }),
    onSuccess: (result: TLoginStep, values) => {
      rememberUsername(values.remember ? values.username.trim() : null);
      if (isPending(result)) setPending(result);
      else loggedIn(result);
    },
    onError: (e) => {
      setError(e instanceof ApiError && e.message ? e.message : t('login.failed'));
      if (captchaOff) return;
      // A captcha is single use, even when the password was wrong.
      form.setFieldValue('captcha', '');
      captcha.refresh();
    },
  });

  return (
    <div className="login-page" data-testid="login-page">
      <div className="login-page__lang">
        <LangSwitch />
      </div>
      <main className="login-page__main">
        <header className="login-page__header">
          <img src="/logo.svg" alt="" className="login-page__logo" />
          <Typography.Title level={1} className="login-page__title">
            {t('app.title')}
          </Typography.Title>
        </header>
        <Typography.Paragraph type="secondary" className="login-page__desc">
          {t('app.description')}
        </Typography.Paragraph>
        {pending && (
          <Suspense fallback={<Spin />}>
            <TwoFactorStep
              pending={pending}
              onLoggedIn={loggedIn}
              onCancel={() => {
                setPending(null);
                form.setFieldValue('password', '');
                if (!captchaOff) {
                  form.setFieldValue('captcha', '');
                  captcha.refresh();
                }
              }}
            />
          </Suspense>
        )}
        {!pending && (
          <Tabs
            centered
            activeKey={tab}
            onChange={(key) => setTab(key === 'phone' ? 'phone' : 'account')}
            items={[
              {
                key: 'account',
                label: <span data-testid="login-tab-account">{t('login.tabAccount')}</span>,
              },
              {
                key: 'phone',
                label: <span data-testid="login-tab-phone">{t('phoneLogin.tab')}</span>,
              },
            ]}
          />
        )}
        {tab === 'phone' && !pending && (
          <div onFocus={signalIntent}>
            <PhoneLoginForm
              onStep={(step) => (isPending(step) ? setPending(step) : loggedIn(step))}
            />
          </div>
        )}
        <Form<LoginForm>
          hidden={tab !== 'account' || pending !== null}
          form={form}
          size="large"
          initialValues={{ username: remembered ?? '', remember: remembered !== null }}
          onFinish={(values) => {
            setError(null);
            login.mutate(values);
          }}
          onValuesChange={() => {
            forgetSessionEnd();
            setError(null);
          }}
          onFocus={signalIntent}
        >
          {error && (
            <Alert
              type="error"
              showIcon
              message={error}
              className="login-page__error"
              data-testid="login-error"
            />
          )}
          <Form.Item
            name="username"
            rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}
          >
            <Input
              prefix={<UserOutlined />}
              placeholder={t('login.username')}
              autoComplete="username"
              data-testid="login-username"
            />
          </Form.Item>
          <Form.Item
            name="password"
            rules={[{ required: true, message: t('login.passwordRequired') }]}
          >
            <Input.Password
              prefix={<LockOutlined />}
              placeholder={t('login.password')}
              autoComplete="current-password"
              data-testid="login-password"
            />
          </Form.Item>
          {!captchaOff && (
            <div className="login-page__captcha" data-testid="login-captcha-row">
              <Form.Item
                name="captcha"
                rules={[{ required: true, message: t('login.captchaRequired') }]}
              >
                <Input
                  prefix={<SafetyOutlined />}
                  placeholder={t('login.captcha')}
                  autoComplete="off"
                  maxLength={16}
                  data-testid="login-captcha"
                />
              </Form.Item>
              <button
                type="button"
                className="login-page__captcha-image"
                onClick={captcha.refresh}
                title={t('login.captchaRefresh')}
                data-testid="login-captcha-image"
              >
                {captcha.image ? (
                  <img src={captcha.image} alt={t('login.captchaAlt')} />
                ) : captcha.failed ? (
                  <span className="login-page__captcha-failed">{t('login.captchaFailed')}</span>
                ) : (
                  <Spin size="small" />
                )}
              </button>
            </div>
          )}
          <Form.Item name="remember" valuePropName="checked">
            <Checkbox data-testid="login-remember">{t('login.remember')}</Checkbox>
          </Form.Item>
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={login.isPending}
            data-testid="login-submit"
          >
            {t('login.submit')}
          </Button>
        </Form>
        <Suspense fallback={null}>
          <SsoButtons onError={setError} />
        </Suspense>
        <div className="login-page__links">
          <Link to="/user/alteration" data-testid="login-forgot">
            {t('phoneLogin.forgot')}
          </Link>
          <Link to="/user/register" data-testid="login-register">
            {t('phoneLogin.register')}
          </Link>
        </div>
        <Typography.Paragraph type="secondary" className="login-page__footer">
          {t('login.series')}
        </Typography.Paragraph>
      </main>
    </div>
  );
}
