import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const accountMessages = defineMessages({
  registerFieldAvailable: { 'zh-CN': '该值可用', 'en-US': 'Available' },
  codeInvalid: { 'zh-CN': '验证码错误或已失效', 'en-US': 'Invalid verification code' },
  codeTooSoon: {
    'zh-CN': (p) => `验证码发送过于频繁，请${p.seconds}秒后再试`,
    'en-US': (p) => `A code was just sent: try again in ${p.seconds} seconds`,
  },
  codeTooMany: {
    'zh-CN': '该号码或邮箱的验证码请求过多，请一小时后再试',
    'en-US': 'Too many codes for this address: try again in an hour',
  },
  codeSent: { 'zh-CN': '验证码已发送', 'en-US': 'Verification code sent' },
  codeSentIfKnown: {
    'zh-CN': '如果该号码或邮箱属于某个账号，验证码已发送',
    'en-US': 'If an account uses this address, a verification code has been sent',
  },
  registerSucceeded: { 'zh-CN': '注册成功', 'en-US': 'Registration succeeded' },
  passwordResetSucceeded: { 'zh-CN': '密码重置成功!', 'en-US': 'Password reset successful!' },
  smsSettingsSaved: { 'zh-CN': '短信设置已保存', 'en-US': 'SMS settings saved' },
});

type AccountMessages = typeof accountMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends AccountMessages {}
}
