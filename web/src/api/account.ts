import type {
  TCheckRule,
  TCheckRuleEdit,
  TCheckRuleInput,
  TCheckRulePage,
  TLoginStep,
  TPasswordResetRequest,
  TPhoneLoginRequest,
  TRegisterCheckQuery,
  TRegisterRequest,
  TRegisterResult,
  TResetCodeRequest,
  TSmsRequest,
  TSmsSettings,
  TSmsSettingsView,
} from '@blrms/contracts';
import { http, request, type Params } from './client';

/**
 * Public account calls (registration, phone login, password reset). They are silent: each page
 * shows the server's message next to the form it concerns.
 */
export const accountApi = {
  registerCheck: (query: Omit<TRegisterCheckQuery, '_t'>) =>
    request<null>('GET', '/sys/user/registerCheck', { params: query, silent: true }),
  registerEmailCode: (email: string) =>
    request<null>('POST', '/sys/user/registerEmailCode', { body: { email }, silent: true }),
  register: (body: TRegisterRequest) =>
    request<TRegisterResult>('POST', '/sys/user/register', { body, silent: true }),
  sms: (body: TSmsRequest) => request<null>('POST', '/sys/sms', { body, silent: true }),
  phoneLogin: (body: TPhoneLoginRequest) =>
    http.post<TLoginStep>('/sys/phoneLogin', body, { silent: true }),
  resetCode: (body: TResetCodeRequest) =>
    request<null>('POST', '/sys/user/resetCode', { body, silent: true }),
  passwordReset: (body: TPasswordResetRequest) =>
    request<null>('POST', '/sys/user/passwordReset', { body, silent: true }),
};

/** Check rules (platform administrators) and the rule check the forms use. */
export const checkRuleApi = {
  list: (params: Params) => http.get<TCheckRulePage>('/sys/checkRule/list', params),
  add: (body: TCheckRuleInput) => request<TCheckRule>('POST', '/sys/checkRule/add', { body }),
  edit: (body: TCheckRuleEdit) => request<TCheckRule>('PUT', '/sys/checkRule/edit', { body }),
  delete: (id: string) => request<null>('DELETE', '/sys/checkRule/delete', { params: { id } }),
  /** Resolves with the server's message; rejects with the rule's message (silent: the form shows it). */
  checkByCode: (ruleCode: string, value: string) =>
    request<null>('GET', '/sys/checkRule/checkByCode', {
      params: { ruleCode, value },
      silent: true,
    }),
  smsSettings: () => http.get<TSmsSettingsView>('/sys/setting/sms'),
  saveSmsSettings: (body: TSmsSettings) =>
    request<TSmsSettingsView>('PUT', '/sys/setting/sms', { body }),
};
