import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const firmwareMessages = defineMessages({
  // Firmware library (issue 5, helper B).
  firmwareUploaded: { 'zh-CN': '固件上传成功', 'en-US': 'Firmware uploaded' },
  firmwareSettingsSaved: { 'zh-CN': '固件设置已保存', 'en-US': 'Firmware settings saved' },
  firmwareNotFound: { 'zh-CN': '固件不存在', 'en-US': 'Firmware not found' },
  firmwareFileMissing: {
    'zh-CN': 'file: 请在 series、version、releaseNotes 之后上传一个固件文件',
    'en-US': 'file: one firmware file is required, after series, version and releaseNotes',
  },
  firmwareFileEmpty: { 'zh-CN': 'file: 文件不能为空', 'en-US': 'file: must not be empty' },
  firmwareTooLarge: {
    'zh-CN': (p) => `file: 固件文件不能超过 ${p.limit}`,
    'en-US': (p) => `file: firmware files must not exceed ${p.limit}`,
  },
  firmwareVersionExists: {
    'zh-CN': (p) => `version: ${p.series} 系列已有固件版本 ${p.version}`,
    'en-US': (p) => `version: ${p.series} firmware ${p.version} already exists`,
  },
  firmwareInUse: {
    'zh-CN': '该固件正被已计划、进行中或已暂停的升级任务使用，不能删除',
    'en-US':
      'A scheduled, running or paused upgrade campaign uses this firmware: it cannot be deleted',
  },
  firmwareUrlInvalid: { 'zh-CN': '下载链接无效', 'en-US': 'Invalid download link' },
  firmwareUrlExpired: { 'zh-CN': '下载链接已过期', 'en-US': 'The download link has expired' },
  firmwareRangeInvalid: {
    'zh-CN': 'Range: 请求的字节范围超出文件大小',
    'en-US': 'Range: the requested bytes are beyond the end of the file',
  },
  // Per-company storage quota (issue 14 item 9).
  storageQuotaExceeded: {
    'zh-CN': (p) => `file: 超出本公司的存储配额（已用 ${p.used}，上限 ${p.limit}），文件未保存`,
    'en-US': (p) =>
      `file: the company's storage quota is exceeded (${p.used} of ${p.limit} used); the file was not stored`,
  },
});

type FirmwareMessages = typeof firmwareMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends FirmwareMessages {}
}
