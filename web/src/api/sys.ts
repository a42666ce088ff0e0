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
