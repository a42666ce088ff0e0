import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const campaignMessages = defineMessages({
  // Campaigns (issue 5, helper C).
  campaignStarted: { 'zh-CN': '任务已开始', 'en-US': 'Campaign started' },
  campaignScheduled: {
    'zh-CN': '任务已计划，将按设定时间开始',
    'en-US': 'Campaign scheduled: it starts at the time set',
  },
  campaignApproved: {
    'zh-CN': '已批准，下一批次即将开始',
    'en-US': 'Approved: the next wave starts',
  },
  campaignNotAwaitingApproval: {
    'zh-CN': '任务当前没有等待批准的批次',
    'en-US': 'The campaign is not awaiting approval of a wave',
  },
  campaignPaused: { 'zh-CN': '任务已暂停', 'en-US': 'Campaign paused' },
  campaignResumed: { 'zh-CN': '任务已继续', 'en-US': 'Campaign resumed' },
  campaignCanceled: { 'zh-CN': '任务已取消', 'en-US': 'Campaign canceled' },
  campaignRetried: {
    'zh-CN': '失败的设备已重新排队',
    'en-US': 'The failed devices are queued again',
  },
  campaignNotFound: { 'zh-CN': '任务不存在', 'en-US': 'Campaign not found' },
  campaignStateConflict: {
    'zh-CN': (p) => `任务当前状态为 ${p.state}，不能执行此操作`,
    'en-US': (p) => `The campaign is ${p.state}: this action does not apply`,
  },
  campaignConfigDenied: {
    'zh-CN': '批量配置还需要“修改配置”权限（device:config）',
    'en-US': 'Bulk configuration also needs the device:config permission',
  },
  campaignFirmwareRequired: {
    'zh-CN': 'firmwareId: 升级任务必须选择固件',
    'en-US': 'firmwareId: required for an upgrade',
  },
  campaignSeriesRequired: {
    'zh-CN': 'series: 批量配置必须选择设备系列',
    'en-US': 'series: required for configuration',
  },
  campaignFirmwareNotFound: {
    'zh-CN': 'firmwareId: 固件不存在',
    'en-US': 'firmwareId: firmware not found',
  },
  campaignGroupNotFound: {
    'zh-CN': 'target.groupId: 分组不存在',
    'en-US': 'target.groupId: group not found',
  },
  campaignTargetSeries: {
    'zh-CN': (p) => `target.series: 必须是 ${p.series}（固件或配置所属的系列）`,
    'en-US': (p) =>
      `target.series: must be ${p.series}, the series of the firmware or configuration`,
  },
  campaignVersionRange: {
    'zh-CN': 'target.versionTo: 不能早于 versionFrom',
    'en-US': 'target.versionTo: must not be before versionFrom',
  },
  campaignDevicesNotFound: {
    'zh-CN': (p) => `target.deviceIds: ${p.count} 台设备不存在：${p.ids}`,
    'en-US': (p) => `target.deviceIds: ${p.count} device(s) not found: ${p.ids}`,
  },
  campaignDevicesHidden: {
    'zh-CN': (p) => `target.deviceIds: 无权操作 ${p.count} 台设备：${p.ids}`,
    'en-US': (p) => `target.deviceIds: no access to ${p.count} device(s): ${p.ids}`,
  },
  campaignDevicesSeries: {
    'zh-CN': (p) => `target.deviceIds: ${p.count} 台设备不是 ${p.series} 系列：${p.sns}`,
    'en-US': (p) => `target.deviceIds: ${p.count} device(s) are not ${p.series}: ${p.sns}`,
  },
  campaignNoDevices: {
    'zh-CN': (p) => `target: 没有符合条件的设备（已排除 ${p.excluded} 台）`,
    'en-US': (p) => `target: no devices match (${p.excluded} left out)`,
  },
  campaignConfigInvalid: {
    'zh-CN': (p) => `configPatch.${p.problem}`,
    'en-US': (p) => `configPatch.${p.problem}`,
  },
});

type CampaignMessages = typeof campaignMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends CampaignMessages {}
}
