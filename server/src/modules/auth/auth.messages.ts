import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const authMessages = defineMessages({
  captchaInvalid: { 'zh-CN': '验证码错误', 'en-US': 'Invalid verification code' },
  loginFailed: { 'zh-CN': '用户名或密码错误', 'en-US': 'Incorrect username or password' },
  loginLocked: {
    'zh-CN': (p) => `登录失败次数过多，账号已锁定，请${p.minutes}分钟后再试`,
    'en-US': (p) =>
      `Too many failed logins: the account is locked, try again in ${p.minutes} minutes`,
  },
  logoutSucceeded: { 'zh-CN': '退出登录成功', 'en-US': 'Logged out' },
  // Login lockout and two-factor login (issue 14, helper authflow).
  twoFactorChallengeInvalid: {
    'zh-CN': '二次验证已失效，请重新登录',
    'en-US': 'The two-factor step has expired: log in again',
  },
  twoFactorResetDone: {
    'zh-CN': '已重置该用户的二次验证',
    'en-US': "The user's second factor was reset",
  },
  loginUnlocked: { 'zh-CN': '已解除登录锁定', 'en-US': 'Login lock lifted' },
});

type AuthMessages = typeof authMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends AuthMessages {}
}
