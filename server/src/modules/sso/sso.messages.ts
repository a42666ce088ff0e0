import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const ssoMessages = defineMessages({
  // Single sign-on (CAS 3.0, OpenID Connect)
  ssoNotConfigured: {
    'zh-CN': (p) => `未配置 ${p.protocol} 单点登录`,
    'en-US': (p) => `Single sign-on through ${p.protocol} is not configured`,
  },
  ssoCallbackInvalid: {
    'zh-CN': (p) => `${p.field}: 不是本控制台的单点登录回调地址`,
    'en-US': (p) => `${p.field}: not this console's single sign-on callback address`,
  },
  ssoTicketInvalid: {
    'zh-CN': 'CAS 票据无效、已过期或已使用，请重新登录',
    'en-US': 'The CAS ticket is invalid, expired or already used; please sign in again',
  },
  ssoStateInvalid: {
    'zh-CN': '单点登录请求已过期或已使用，请重新登录',
    'en-US': 'The single sign-on request has expired or was already used; please sign in again',
  },
  ssoTokenInvalid: {
    'zh-CN': '身份提供方的应答未通过校验，请重新登录',
    'en-US': "The identity provider's answer failed verification; please sign in again",
  },
  ssoUsernameMissing: {
    'zh-CN': (p) => `身份提供方未提供用于匹配用户名的 ${p.name}`,
    'en-US': (p) => `The identity provider sent no ${p.name} to match a username with`,
  },
  ssoUserUnknown: {
    'zh-CN': (p) => `账号 ${p.username} 不能通过单点登录进入本平台，请联系管理员`,
    'en-US': (p) =>
      `The account ${p.username} cannot sign in here through single sign-on; ask your administrator`,
  },
  ssoCompanyUnknown: {
    'zh-CN': (p) => `单点登录配置的客户 ${p.code} 不存在，请联系管理员`,
    'en-US': (p) =>
      `The company ${p.code} configured for single sign-on does not exist; ask your administrator`,
  },
  ssoProviderUnavailable: {
    'zh-CN': '无法连接单点登录服务，请稍后再试或使用账号密码登录',
    'en-US':
      'The single sign-on service cannot be reached; try again later or log in with a password',
  },
});

type SsoMessages = typeof ssoMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends SsoMessages {}
}
