import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const twoFactorMessages = defineMessages({
  twoFactorAlreadyEnabled: {
    'zh-CN': '已开启二次验证',
    'en-US': 'Two-factor login is already on',
  },
  twoFactorNotStarted: {
    'zh-CN': '请先获取二维码再输入验证码',
    'en-US': 'Start the set-up (QR code) before entering a code',
  },
  twoFactorNotEnabled: { 'zh-CN': '未开启二次验证', 'en-US': 'Two-factor login is not on' },
  twoFactorRequired: {
    'zh-CN': '所在企业或平台要求二次验证，不能关闭',
    'en-US': 'Your company or the platform requires two-factor login: it cannot be turned off',
  },
  twoFactorPasswordInvalid: { 'zh-CN': '密码错误', 'en-US': 'Incorrect password' },
  twoFactorEnabled: { 'zh-CN': '二次验证已开启', 'en-US': 'Two-factor login is on' },
  twoFactorDisabled: { 'zh-CN': '二次验证已关闭', 'en-US': 'Two-factor login is off' },
  twoFactorPolicySaved: { 'zh-CN': '二次验证要求已保存', 'en-US': 'Two-factor requirement saved' },
});

type TwoFactorMessages = typeof twoFactorMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends TwoFactorMessages {}
}
