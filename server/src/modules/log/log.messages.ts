import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const logMessages = defineMessages({
  loginLogContent: {
    'zh-CN': (p) => `用户 ${p.username} 登录成功`,
    'en-US': (p) => `User ${p.username} logged in`,
  },
});

type LogMessages = typeof logMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends LogMessages {}
}
