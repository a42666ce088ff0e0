import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const dictMessages = defineMessages({
  dictNotFound: { 'zh-CN': '字典不存在', 'en-US': 'Dictionary not found' },
  dictItemNotFound: { 'zh-CN': '字典项不存在', 'en-US': 'Dictionary item not found' },
  dictSaved: { 'zh-CN': '字典已保存', 'en-US': 'Dictionary saved' },
  dictDeleted: { 'zh-CN': '已移入回收站', 'en-US': 'Moved to the recycle bin' },
  dictRestored: { 'zh-CN': '字典已还原', 'en-US': 'Dictionary restored' },
  dictPurged: { 'zh-CN': '字典已彻底删除', 'en-US': 'Dictionary deleted for good' },
  dictItemSaved: { 'zh-CN': '字典项已保存', 'en-US': 'Item saved' },
  dictItemDeleted: { 'zh-CN': '字典项已删除', 'en-US': 'Item deleted' },
  dictCacheRefreshed: {
    'zh-CN': '已刷新所有节点的字典缓存',
    'en-US': 'Dictionary caches refreshed on every node',
  },
  dictCodeExists: {
    'zh-CN': 'dictCode: 编码已存在',
    'en-US': 'dictCode: is already used by another dictionary',
  },
  dictCodeInRecycleBin: {
    'zh-CN': 'dictCode: 回收站中已有此编码的字典，请还原或彻底删除它',
    'en-US': 'dictCode: a dictionary in the recycle bin has this code; restore or purge it',
  },
  dictPlatformReadOnly: {
    'zh-CN': '平台字典只能由平台管理员修改；可添加同编码的本公司字典来替换它',
    'en-US':
      'Platform dictionaries are changed by platform administrators; add your own dictionary with the same code to replace it',
  },
  dictTooMany: {
    'zh-CN': (p) => `最多可有 ${p.max} 个字典（含回收站）`,
    'en-US': (p) => `At most ${p.max} dictionaries (recycle bin included)`,
  },
  dictItemsTooMany: {
    'zh-CN': (p) => `一个字典最多 ${p.max} 项`,
    'en-US': (p) => `A dictionary has at most ${p.max} items`,
  },
  dictItemValueExists: {
    'zh-CN': 'itemValue: 该值不可用，字典中已存在',
    'en-US': 'itemValue: is already used in this dictionary',
  },
  dictItemValueAvailable: { 'zh-CN': '该值可用', 'en-US': 'Value available' },
  dictImportApplied: {
    'zh-CN': (p) => `导入完成：新增 ${p.dicts} 个字典、${p.items} 项，更新 ${p.updated} 项`,
    'en-US': (p) =>
      `Imported: ${p.dicts} dictionaries and ${p.items} items added, ${p.updated} items updated`,
  },
  dictImportRefused: {
    'zh-CN': (p) => `文件有 ${p.count} 处错误，未导入任何数据`,
    'en-US': (p) => `The file has ${p.count} errors; nothing was imported`,
  },
  dictImportFileType: {
    'zh-CN': 'file: 只支持 .xlsx 文件',
    'en-US': 'file: must be an .xlsx file',
  },
  dictImportNoHeader: {
    'zh-CN': (p) => `file: 第一行必须是表头，且包含列 ${p.columns}`,
    'en-US': (p) => `file: the first row must be the header, with the columns ${p.columns}`,
  },
  dictImportTooManyRows: {
    'zh-CN': (p) => `file: 最多导入 ${p.max} 行`,
    'en-US': (p) => `file: at most ${p.max} rows can be imported`,
  },
  dictRowRequired: { 'zh-CN': '不能为空', 'en-US': 'is required' },
  dictRowTooLong: {
    'zh-CN': (p) => `最多 ${p.max} 个字符`,
    'en-US': (p) => `must be at most ${p.max} characters`,
  },
  dictRowBadCode: {
    'zh-CN': '须以字母开头，只含字母、数字和下划线，最多 64 个字符',
    'en-US': 'must start with a letter and hold only letters, digits and _ (at most 64)',
  },
  dictRowControlChars: {
    'zh-CN': '不能含控制字符',
    'en-US': 'must not contain control characters',
  },
  dictRowBadSort: {
    'zh-CN': '须为 0 到 99999 的整数',
    'en-US': 'must be a whole number from 0 to 99999',
  },
  dictRowBadStatus: {
    'zh-CN': '须为 1（启用）或 0（停用）',
    'en-US': 'must be 1 (enabled) or 0 (disabled)',
  },
  dictRowDuplicateValue: {
    'zh-CN': (p) => `与第 ${p.row} 行重复`,
    'en-US': (p) => `repeats row ${p.row}`,
  },
  dictRowInRecycleBin: {
    'zh-CN': '回收站中已有此编码的字典，请先还原或彻底删除',
    'en-US': 'a dictionary in the recycle bin has this code; restore or purge it first',
  },
  dictRowTooManyItems: {
    'zh-CN': (p) => `导入后此字典将超过 ${p.max} 项`,
    'en-US': (p) => `this dictionary would have more than ${p.max} items`,
  },
  dictRowTooManyDicts: {
    'zh-CN': (p) => `导入后字典将超过 ${p.max} 个`,
    'en-US': (p) => `there would be more than ${p.max} dictionaries`,
  },
});

type DictMessages = typeof dictMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends DictMessages {}
}
