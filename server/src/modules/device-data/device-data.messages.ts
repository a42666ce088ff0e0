import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const deviceDataMessages = defineMessages({
  deviceDataRangeInvalid: {
    'zh-CN': 'end: 结束时间不能早于开始时间',
    'en-US': 'end: must not be earlier than begin',
  },
  dataRetentionSaved: { 'zh-CN': '数据保留设置已保存', 'en-US': 'Data retention saved' },
});

type DeviceDataMessages = typeof deviceDataMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends DeviceDataMessages {}
}
