import type {
  TCurrentUserDeparts,
  TLoginRequest,
  TLoginStep,
  TTwoFactorLogin,
  TTwoFactorLoginResult,
  TTwoFactorSetup,
  TSelectDepartRequest,
  TUpdatePasswordRequest,
  TUserInfo,
  TUserPermission,
} from '@blrms/contracts';
import i18n from 'i18next';
import { http, request } from './client';

/** Calls of the session and account that the shell and the login page share. */
export const sysApi = {
  captchaImage: (key: string) =>
    http.get<string>(`/sys/randomImage/${key}`, undefined, { silent: true }),
  login: (body: TLoginRequest) => http.post<TLoginStep>('/sys/login', body, { silent: true }),
  twoFactorLogin: (body: TTwoFactorLogin) =>
    http.post<TTwoFactorLoginResult>('/sys/login/twoFactor', body, { silent: true }),
  twoFactorLoginSetup: (challenge: string) =>
    http.post<TTwoFactorSetup>('/sys/login/twoFactor/setup', { challenge }, { silent: true }),
  userPermission: () => http.get<TUserPermission>('/sys/permission/getUserPermissionByToken'),
  currentUserDeparts: () => http.get<TCurrentUserDeparts>('/sys/user/getCurrentUserDeparts'),
  selectDepart: (body: TSelectDepartRequest) =>
    http.post<{ userInfo: TUserInfo }>('/sys/selectDepart', body),
  updatePassword: (body: TUpdatePasswordRequest) =>
    request<null>('PUT', '/sys/user/updatePassword', { body, silent: true }),
};

/**
 * The menu asked for as soon as a sign-in succeeds, while the console's code is still arriving
 * (main.tsx), so that the two overlap instead of the console asking only once it has mounted. The
 * console takes it once, in the language it was asked in.
 */
let earlyPermission: { lang: string; answer: Promise<TUserPermission> } | undefined;

export function requestPermissionEarly(): void {
  const answer = sysApi.userPermission();
  // Whoever takes it handles a failure; until then it must not count as unhandled.
  answer.catch(() => undefined);
  earlyPermission = { lang: i18n.language, answer };
}

export function takeEarlyPermission(lang: string): Promise<TUserPermission> | undefined {
  const early = earlyPermission;
  earlyPermission = undefined;
  return early?.lang === lang ? early.answer : undefined;
}
