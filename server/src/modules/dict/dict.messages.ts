import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const dictMessages = defineMessages({
  dictNotFound: { 'zh-CN': '字典不存在', 'en-US': 'Dictionary not found' },
});

type DictMessages = typeof dictMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends DictMessages {}
}
