import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const deviceMessages = defineMessages({
  deviceSnExists: { 'zh-CN': 'SN已存在！', 'en-US': 'SN already exists!' },
  deviceNotFound: { 'zh-CN': '设备不存在', 'en-US': 'Device not found' },
  deviceTokenNotFound: {
    'zh-CN': 'tokenId: Token密钥不存在',
    'en-US': 'tokenId: token key not found',
  },
  deviceTokenInUse: {
    'zh-CN': (p) => `该Token密钥下还有 ${p.count} 台设备，请先删除或迁移这些设备`,
    'en-US': (p) =>
      `${p.count} devices still use this token key: delete them or move them to another token first`,
  },
  deviceGroupNotFound: { 'zh-CN': 'groupId: 分组不存在', 'en-US': 'groupId: group not found' },
  deviceGroupNameExists: { 'zh-CN': '分组名称已存在！', 'en-US': 'Group name already exists!' },
  deviceLogContentTooLarge: {
    'zh-CN': (p) => `content: 日志内容不能超过 64 KiB（当前 ${p.size} 字节）`,
    'en-US': (p) => `content: log content must be at most 64 KiB (got ${p.size} bytes)`,
  },
  importFileType: {
    'zh-CN': 'file: 只支持 .xlsx 和 .csv 文件',
    'en-US': 'file: must be an .xlsx or .csv file',
  },
  importFieldInvalid: {
    'zh-CN': (p) => `${p.field}: 格式不正确`,
    'en-US': (p) => `${p.field}: is invalid`,
  },
  importNoHeader: {
    'zh-CN': (p) => `file: 第一行必须是表头，且包含列 ${p.columns}`,
    'en-US': (p) => `file: the first row must be a header with the columns ${p.columns}`,
  },
  importTooManyRows: {
    'zh-CN': (p) => `file: 最多导入 ${p.max} 行`,
    'en-US': (p) => `file: at most ${p.max} rows can be imported`,
  },
  importRowRequired: { 'zh-CN': '不能为空', 'en-US': 'is required' },
  importRowTooLong: {
    'zh-CN': (p) => `最多 ${p.max} 个字符`,
    'en-US': (p) => `must be at most ${p.max} characters`,
  },
  importRowSnInvalid: {
    'zh-CN': '必须是 1-64 位字母、数字、_ 或 -',
    'en-US': 'must be 1 to 64 letters, digits, _ or -',
  },
  importRowSnDuplicate: {
    'zh-CN': (p) => `SN 与第 ${p.row} 行重复`,
    'en-US': (p) => `SN repeats row ${p.row}`,
  },
  importRowSnExists: { 'zh-CN': 'SN已存在！', 'en-US': 'SN already exists!' },
  importRowSeriesInvalid: {
    'zh-CN': (p) => `必须是以下之一：${p.values}`,
    'en-US': (p) => `must be one of: ${p.values}`,
  },
  importRowGroupUnknown: {
    'zh-CN': (p) => `分组 ${p.name} 不存在`,
    'en-US': (p) => `group ${p.name} does not exist`,
  },
  importRowGoodsUnknown: {
    'zh-CN': (p) => `物料型号 ${p.name} 不存在`,
    'en-US': (p) => `goods model ${p.name} does not exist`,
  },
  importRowGoodsAmbiguous: {
    'zh-CN': (p) => `物料型号 ${p.name} 有多个硬件版本，请在设备表单中选择`,
    'en-US': (p) =>
      `goods model ${p.name} has several hardware revisions: choose one in the device form`,
  },
  importRowLocationUnknown: {
    'zh-CN': (p) => `位置 ${p.name} 不存在（写法如 华东 / 上海站 / 柜1）`,
    'en-US': (p) => `location ${p.name} does not exist (write it as Region / Site / Cabinet)`,
  },
  importRowLocationAmbiguous: {
    'zh-CN': (p) => `位置 ${p.name} 不唯一，请在设备表单中选择`,
    'en-US': (p) => `location ${p.name} is not unique: choose it in the device form`,
  },
  importRowVendorUnknown: {
    'zh-CN': (p) => `供应商 ${p.name} 不存在`,
    'en-US': (p) => `vendor ${p.name} does not exist`,
  },
  importRowTagInvalid: {
    'zh-CN': (p) => `标签 ${p.tag} 无效：每个标签 1-32 个字符，以逗号分隔`,
    'en-US': (p) => `tag ${p.tag} is invalid: each tag has 1 to 32 characters, separated by commas`,
  },
  importRowTagsTooMany: {
    'zh-CN': (p) => `最多 ${p.max} 个标签`,
    'en-US': (p) => `at most ${p.max} tags`,
  },
  deviceGoodsNotFound: { 'zh-CN': 'goodsId: 物料不存在', 'en-US': 'goodsId: goods not found' },
  deviceLocationNotFound: {
    'zh-CN': 'locationId: 位置不存在',
    'en-US': 'locationId: location not found',
  },
  deviceVendorNotFound: {
    'zh-CN': 'vendorId: 供应商不存在',
    'en-US': 'vendorId: vendor not found',
  },
  deviceTagsTooMany: {
    'zh-CN': (p) => `tags: 每台设备最多 ${p.max} 个标签（${p.sn} 将有 ${p.count} 个）`,
    'en-US': (p) => `tags: at most ${p.max} tags per device (${p.sn} would have ${p.count})`,
  },
  deviceColumnSn: { 'zh-CN': 'SN', 'en-US': 'SN' },
  deviceColumnName: { 'zh-CN': '设备名称', 'en-US': 'Name' },
  deviceColumnSeries: { 'zh-CN': '设备系列', 'en-US': 'Series' },
  deviceColumnModel: { 'zh-CN': '型号', 'en-US': 'Model' },
  deviceColumnVersion: { 'zh-CN': '固件版本', 'en-US': 'Firmware version' },
  deviceColumnGroup: { 'zh-CN': '分组', 'en-US': 'Group' },
  deviceColumnRemark: { 'zh-CN': '备注', 'en-US': 'Remark' },
  deviceColumnLocation: { 'zh-CN': '位置', 'en-US': 'Location' },
  deviceColumnGoods: { 'zh-CN': '物料型号', 'en-US': 'Goods model' },
  deviceColumnLocationPath: { 'zh-CN': '位置路径', 'en-US': 'Location path' },
  deviceColumnVendor: { 'zh-CN': '供应商', 'en-US': 'Vendor' },
  deviceColumnTags: { 'zh-CN': '标签', 'en-US': 'Tags' },
  deviceColumnTagCode: { 'zh-CN': '设备标签码', 'en-US': 'Tag code' },
  deviceColumnStatus: { 'zh-CN': '状态', 'en-US': 'Status' },
  deviceColumnToken: { 'zh-CN': 'Token密钥', 'en-US': 'Token key' },
  deviceColumnOwner: { 'zh-CN': '所属用户', 'en-US': 'Owner' },
  deviceColumnIp: { 'zh-CN': 'IP', 'en-US': 'IP' },
  deviceColumnLastSeen: { 'zh-CN': '最后在线', 'en-US': 'Last seen' },
  deviceColumnCreateTime: { 'zh-CN': '创建时间', 'en-US': 'Created' },
  deviceStatusOnline: { 'zh-CN': '在线', 'en-US': 'Online' },
  deviceStatusOffline: { 'zh-CN': '离线', 'en-US': 'Offline' },
  deviceExportSheet: { 'zh-CN': '设备列表', 'en-US': 'Devices' },
  deviceLogSubjectAdd: { 'zh-CN': '添加设备', 'en-US': 'Device added' },
  deviceLogSubjectEdit: { 'zh-CN': '编辑设备', 'en-US': 'Device edited' },
  deviceLogSubjectDelete: { 'zh-CN': '删除设备', 'en-US': 'Device deleted' },
  deviceLogSubjectImport: { 'zh-CN': '导入设备', 'en-US': 'Device imported' },
  deviceLogSubjectMove: { 'zh-CN': '移动分组', 'en-US': 'Device moved to a group' },
  deviceLogSubjectConfigPush: { 'zh-CN': '下发配置', 'en-US': 'Configuration pushed' },
  deviceLogSubjectCommandSend: { 'zh-CN': '下发命令', 'en-US': 'Command sent' },
  deviceLogSubjectOtaNotify: { 'zh-CN': '升级通知', 'en-US': 'Upgrade notified' },
  deviceLogSubjectAlarmRaise: { 'zh-CN': '告警产生', 'en-US': 'Alarm raised' },
  deviceLogSubjectAlarmAck: { 'zh-CN': '告警确认', 'en-US': 'Alarm acknowledged' },
  deviceLogSubjectAlarmClear: { 'zh-CN': '告警清除', 'en-US': 'Alarm cleared' },
  deviceLogSubjectScheduledJob: { 'zh-CN': '定时任务', 'en-US': 'Scheduled job' },
  deviceLogSubjectTags: { 'zh-CN': '修改标签', 'en-US': 'Tags changed' },
});

type DeviceMessages = typeof deviceMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends DeviceMessages {}
}
