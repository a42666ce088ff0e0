import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const duplicateCheckMessages = defineMessages({
  duplicateTaken: {
    'zh-CN': '该值不可用，系统中已存在！',
    'en-US': 'This value already exists',
  },
  duplicateNotAllowed: {
    'zh-CN': 'tableName/fieldName: 不支持校验该字段',
    'en-US': 'tableName/fieldName: this field cannot be checked',
  },
});

type DuplicateCheckMessages = typeof duplicateCheckMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends DuplicateCheckMessages {}
}
