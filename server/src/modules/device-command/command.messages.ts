import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const commandMessages = defineMessages({
  deviceOffline: {
    'zh-CN': '设备离线，命令只能发给在线设备',
    'en-US': 'The device is offline: commands reach online devices only',
  },
  deviceCommandCustomDenied: {
    'zh-CN': 'method: 自定义命令需要“自定义命令”权限',
    'en-US': 'method: free-form commands need the custom command permission',
  },
  deviceCommandSent: { 'zh-CN': '命令已下发', 'en-US': 'Command sent' },
  deviceCommandTooLarge: {
    'zh-CN': (p) => `params: 命令超过 ${p.kb} KB`,
    'en-US': (p) => `params: the command must be at most ${p.kb} KB as JSON`,
  },
});

type CommandMessages = typeof commandMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends CommandMessages {}
}
