import { defineMessages } from '../../platform/http/messages.js';

/** What the system monitor, online users and /metrics say to a client, in both languages. */
export const monitorMessages = defineMessages({
  onlineSessionNotFound: {
    'zh-CN': '该会话不存在或已结束',
    'en-US': 'This session does not exist or has already ended',
  },
  onlineOwnSession: {
    'zh-CN': '不能强制退出自己当前的会话，请使用“退出登录”',
    'en-US': 'You cannot force out your own current session; sign out instead',
  },
  onlineForcedOut: { 'zh-CN': '已强制退出', 'en-US': 'Signed out' },
  metricsTokenInvalid: {
    'zh-CN': '需要有效的 Authorization: Bearer 令牌',
    'en-US': 'A valid Authorization: Bearer token is required',
  },
});

type MonitorMessages = typeof monitorMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends MonitorMessages {}
}
