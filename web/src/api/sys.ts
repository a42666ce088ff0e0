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

const PERMISSION_PATH = '/sys/permission/getUserPermissionByToken';

/** Calls of the session and account that the shell and the login page share. */
export const sysApi = {
  captchaImage: (key: string) =>
    http.get<string>(`/sys/randomImage/${key}`, undefined, { silent: true }),
  login: (body: TLoginRequest) => http.post<TLoginStep>('/sys/login', body, { silent: true }),
  twoFactorLogin: (body: TTwoFactorLogin) =>
    http.post<TTwoFactorLoginResult>('/sys/login/twoFactor', body, { silent: true }),
  twoFactorLoginSetup: (challenge: string) =>
    http.post<TTwoFactorSetup>('/sys/login/twoFactor/setup', { challenge }, { silent: true }),
  userPermission: () => http.get<TUserPermission>(PERMISSION_PATH),
  currentUserDeparts: () => http.get<TCurrentUserDeparts>('/sys/user/getCurrentUserDeparts'),
  selectDepart: (body: TSelectDepartRequest) =>
    http.post<{ userInfo: TUserInfo }>('/sys/selectDepart', body),
  updatePassword: (body: TUpdatePasswordRequest) =>
    request<null>('PUT', '/sys/user/updatePassword', { body, silent: true }),
};

/**
 * The menu asked for as soon as a sign-in succeeds, or a signed-in visit starts, while the
 * console's code is still arriving (main.tsx), so that the two overlap instead of the console
 * asking only once it has mounted. The console takes it once, in the language it was asked in.
 */
let earlyPermission: { lang: string; answer: Promise<TUserPermission> } | undefined;

export function requestPermissionEarly(): void {
  // Silent: nothing can show a notice before the console has mounted. A failure (a session that
  // ended, say) is asked again by the console when it takes the answer, and reported then, with
  // the reason the sign-in page shows after a session ends.
  const answer = http.get<TUserPermission>(PERMISSION_PATH, undefined, { silent: true });
  // Whoever takes it handles a failure; until then it must not count as unhandled.
  answer.catch(() => undefined);
  earlyPermission = { lang: i18n.language, answer };
}

/**
 * The early menu's answer without taking it: the console's loader reads it to load the first
 * page's chunk before the console renders (app/AppRoutes.tsx); the console still takes it.
 */
export function peekEarlyPermission(): Promise<TUserPermission> | undefined {
  return earlyPermission?.answer;
}

export function takeEarlyPermission(lang: string): Promise<TUserPermission> | undefined {
  const early = earlyPermission;
  earlyPermission = undefined;
  return early?.lang === lang ? early.answer.catch(() => sysApi.userPermission()) : undefined;
}
