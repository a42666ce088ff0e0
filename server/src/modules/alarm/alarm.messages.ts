import { defineMessages } from '../../platform/http/messages.js';

/** What the alarm module says to clients, and the platform's alarm texts. */
export const alarmMessages = defineMessages({
  alarmRuleNotFound: { 'zh-CN': '告警规则不存在', 'en-US': 'Alarm rule not found' },
  alarmNotFound: { 'zh-CN': '告警不存在', 'en-US': 'Alarm not found' },
  alarmRuleSaved: { 'zh-CN': '保存成功', 'en-US': 'Saved' },
  alarmRuleDeleted: { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
  alarmAcknowledged: {
    'zh-CN': (p) => `已确认 ${p.changed} 条告警`,
    'en-US': (p) => `${p.changed} alarm(s) acknowledged`,
  },
  alarmCleared: {
    'zh-CN': (p) => `已清除 ${p.changed} 条告警`,
    'en-US': (p) => `${p.changed} alarm(s) cleared`,
  },
  alarmRuleLimit: {
    'zh-CN': (p) => `每个公司最多 ${p.max} 条告警规则`,
    'en-US': (p) => `A company may keep at most ${p.max} alarm rules`,
  },
  alarmScopeGroupNotFound: {
    'zh-CN': 'scope.groupId: 设备分组不存在',
    'en-US': 'scope.groupId: no such device group',
  },
  alarmScopeDeviceNotFound: {
    'zh-CN': 'scope.deviceId: 设备不存在',
    'en-US': 'scope.deviceId: no such device',
  },
  alarmNotifyUserNotFound: {
    'zh-CN': (p) => `notify.userIds: ${p.ids} 不是本公司的用户`,
    'en-US': (p) => `notify.userIds: ${p.ids} not a user of this company`,
  },
  alarmNotifyRoleNotFound: {
    'zh-CN': (p) => `notify.roleIds: ${p.ids} 不是本公司的角色`,
    'en-US': (p) => `notify.roleIds: ${p.ids} not a role of this company`,
  },
  alarmNotifyDepartNotFound: {
    'zh-CN': (p) => `notify.departIds: ${p.ids} 不是本公司的部门`,
    'en-US': (p) => `notify.departIds: ${p.ids} not a department of this company`,
  },
  alarmExportSheet: { 'zh-CN': '告警', 'en-US': 'Alarms' },
  // Severities, states and clear reasons, as lists and exports show them.
  alarmSeverityCritical: { 'zh-CN': '紧急', 'en-US': 'Critical' },
  alarmSeverityMajor: { 'zh-CN': '重要', 'en-US': 'Major' },
  alarmSeverityMinor: { 'zh-CN': '次要', 'en-US': 'Minor' },
  alarmSeverityWarning: { 'zh-CN': '警告', 'en-US': 'Warning' },
  alarmStateActive: { 'zh-CN': '活动', 'en-US': 'Active' },
  alarmStateAcknowledged: { 'zh-CN': '已确认', 'en-US': 'Acknowledged' },
  alarmStateCleared: { 'zh-CN': '已清除', 'en-US': 'Cleared' },
  alarmReasonCondition: { 'zh-CN': '条件恢复', 'en-US': 'Condition cleared' },
  alarmReasonManual: { 'zh-CN': '手动清除', 'en-US': 'Cleared by hand' },
  alarmReasonRuleChanged: { 'zh-CN': '规则变更', 'en-US': 'Rule changed' },
  alarmReasonDeviceDeleted: { 'zh-CN': '设备已删除', 'en-US': 'Device deleted' },
  // Export columns.
  alarmColSeverity: { 'zh-CN': '级别', 'en-US': 'Severity' },
  alarmColState: { 'zh-CN': '状态', 'en-US': 'State' },
  alarmColRule: { 'zh-CN': '规则', 'en-US': 'Rule' },
  alarmColSn: { 'zh-CN': 'SN', 'en-US': 'SN' },
  alarmColDevice: { 'zh-CN': '设备名称', 'en-US': 'Device' },
  alarmColMessage: { 'zh-CN': '告警内容', 'en-US': 'Message' },
  alarmColValue: { 'zh-CN': '值', 'en-US': 'Value' },
  alarmColCount: { 'zh-CN': '次数', 'en-US': 'Count' },
  alarmColFirstTime: { 'zh-CN': '首次时间', 'en-US': 'First time' },
  alarmColLastTime: { 'zh-CN': '最近时间', 'en-US': 'Last time' },
  alarmColAckBy: { 'zh-CN': '确认人', 'en-US': 'Acknowledged by' },
  alarmColAckTime: { 'zh-CN': '确认时间', 'en-US': 'Acknowledged at' },
  alarmColAckComment: { 'zh-CN': '确认备注', 'en-US': 'Acknowledge comment' },
  alarmColClearBy: { 'zh-CN': '清除人', 'en-US': 'Cleared by' },
  alarmColClearTime: { 'zh-CN': '清除时间', 'en-US': 'Cleared at' },
  alarmColClearReason: { 'zh-CN': '清除原因', 'en-US': 'Clear reason' },
  alarmColClearComment: { 'zh-CN': '清除备注', 'en-US': 'Clear comment' },
  // The platform's alarm texts, when a rule has none of its own ({{…}} are the rule's variables).
  alarmTextTelemetryAbove: {
    'zh-CN': '{{device}} {{key}} 为 {{value}}，高于 {{threshold}} 已持续 {{duration}}',
    'en-US': '{{device}} {{key}} is {{value}}, above {{threshold}} for {{duration}}',
  },
  alarmTextTelemetryBelow: {
    'zh-CN': '{{device}} {{key}} 为 {{value}}，低于 {{threshold}} 已持续 {{duration}}',
    'en-US': '{{device}} {{key}} is {{value}}, below {{threshold}} for {{duration}}',
  },
  alarmTextTelemetryOutside: {
    'zh-CN': '{{device}} {{key}} 为 {{value}}，超出 {{low}}～{{high}} 已持续 {{duration}}',
    'en-US': '{{device}} {{key}} is {{value}}, outside {{low}} to {{high}} for {{duration}}',
  },
  alarmTextEvent: {
    'zh-CN': '{{device}} 上报事件 {{code}}',
    'en-US': '{{device}} reported event {{code}}',
  },
  alarmTextOffline: {
    'zh-CN': '{{device}} 已离线超过 {{minutes}} 分钟',
    'en-US': '{{device}} has been offline for more than {{minutes}} min',
  },
  alarmTextConfigFailed: {
    'zh-CN': '{{device}} 配置下发失败：{{reason}}',
    'en-US': '{{device}}: configuration push failed: {{reason}}',
  },
  alarmTextUpgradeFailed: {
    'zh-CN': '{{device}} 固件升级失败：{{reason}}',
    'en-US': '{{device}}: firmware upgrade failed: {{reason}}',
  },
  alarmDurationSeconds: { 'zh-CN': (p) => `${p.n} 秒`, 'en-US': (p) => `${p.n} s` },
  alarmDurationMinutes: { 'zh-CN': (p) => `${p.n} 分钟`, 'en-US': (p) => `${p.n} min` },
  alarmDurationHours: { 'zh-CN': (p) => `${p.n} 小时`, 'en-US': (p) => `${p.n} h` },
});

type AlarmMessages = typeof alarmMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends AlarmMessages {}
}
