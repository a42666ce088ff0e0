import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const configMessages = defineMessages({
  deviceConfigInvalid: {
    'zh-CN': (p) => `config.${p.path}: 不符合 ${p.series} 的配置要求（${p.rule}）`,
    'en-US': (p) => `config.${p.path}: ${p.rule}`,
  },
  deviceConfigStale: {
    'zh-CN': (p) => `baseVersion: 配置已被修改（当前版本 ${p.version}），请刷新后再改`,
    'en-US': (p) =>
      `baseVersion: the configuration was changed meanwhile (now version ${p.version}); reload it and edit again`,
  },
  deviceConfigSent: { 'zh-CN': '配置已保存并下发', 'en-US': 'Configuration saved and sent' },
  deviceConfigQueued: {
    'zh-CN': '配置已保存，设备上线时下发',
    'en-US': 'Configuration saved; the device gets it when it comes online',
  },
});

type ConfigMessages = typeof configMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends ConfigMessages {}
}
