import type { TLoginResult } from '@blrms/contracts';
import { Result, Spin } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { forgetSessionEnd, rememberSessionEnd, startSession } from '../../api/session';
import { ssoApi } from '../../api/sso';
import { HOME_PATH, LOGIN_PATH } from '../../shared/paths';
import { SESSION_KEYS } from '../../shared/storage';

/** `multiDepart` 2: the user belongs to several departments and picks one in the console. */
const MULTI_DEPART = 2;

/**
 * Where the CAS server (`?ticket=`) and the OpenID provider (`?code=&state=&iss=`) send the
 * browser back. The server turns what they sent into a session, stored as the password login
 * stores it; a refusal goes back to the login page, which shows why.
 */
export default function SsoCallbackPage() {
  const { t } = useTranslation();
  const { protocol } = useParams();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // React runs effects twice in development: a ticket or a state is spent on the first call.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fail = (message: string) => {
      rememberSessionEnd(message);
      void navigate(LOGIN_PATH, { replace: true });
    };
    const signIn = (): Promise<TLoginResult> | null => {
      const ticket = params.get('ticket');
      if (protocol === 'cas' && ticket) return ssoApi.casValidate(ticket);
      const code = params.get('code');
      const state = params.get('state');
      const iss = params.get('iss');
      if (protocol === 'oidc' && code && state) {
        return ssoApi.oidcCallback({ code, state, ...(iss ? { iss } : {}) });
      }
      return null;
    };
    const pending = signIn();
    if (!pending) {
      // The provider refused (`?error=access_denied`, the user cancelled) or sent nothing usable.
      fail(params.get('error') === 'access_denied' ? t('sso.denied') : t('sso.failed'));
      return;
    }
    pending.then(
      (result) => {
        if (result.multiDepart === MULTI_DEPART) {
          sessionStorage.setItem(SESSION_KEYS.chooseDepart, '1');
        }
        forgetSessionEnd();
        startSession(result);
        void navigate(HOME_PATH, { replace: true });
      },
      (e: unknown) => fail(e instanceof ApiError && e.message ? e.message : t('sso.failed')),
    );
  }, [navigate, params, protocol, t]);

  return (
    <Result icon={<Spin size="large" />} title={t('sso.signingIn')} data-testid="sso-callback" />
  );
}
