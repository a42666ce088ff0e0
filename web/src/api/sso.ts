import type {
  TLoginResult,
  TOidcAuthorizeResult,
  TOidcCallbackRequest,
  TSsoConfig,
} from '@blrms/contracts';
import { SSO_CALLBACK_PATHS } from '@blrms/contracts/constants';
import { http } from './client';

/** The console's own callback page of a protocol, as the provider must send the browser back. */
export const ssoCallbackUrl = (protocol: keyof typeof SSO_CALLBACK_PATHS) =>
  `${window.location.origin}${SSO_CALLBACK_PATHS[protocol]}`;

/** Single sign-on: the login page's buttons and the callback pages share these calls. */
export const ssoApi = {
  config: () => http.get<TSsoConfig>('/sys/sso/config', undefined, { silent: true }),
  casValidate: (ticket: string) =>
    http.get<TLoginResult>(
      '/cas/client/validateLogin',
      { ticket, service: ssoCallbackUrl('cas') },
      { silent: true },
    ),
  oidcAuthorize: () =>
    http.get<TOidcAuthorizeResult>(
      '/sys/sso/oidc/authorize',
      { redirectUri: ssoCallbackUrl('oidc') },
      { silent: true },
    ),
  oidcCallback: (body: TOidcCallbackRequest) =>
    http.post<TLoginResult>('/sys/sso/oidc/callback', body, { silent: true }),
};
