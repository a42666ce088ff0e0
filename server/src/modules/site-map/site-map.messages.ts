import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const siteMapMessages = defineMessages({
  siteMapSettingsSaved: { 'zh-CN': '地图底图设置已保存', 'en-US': 'Map tile settings saved' },
});

type SiteMapMessages = typeof siteMapMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends SiteMapMessages {}
}
