import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, and its runs' messages. */
export const scheduledJobMessages = defineMessages({
  quartzJobNotFound: { 'zh-CN': '定时任务不存在', 'en-US': 'Scheduled job not found' },
  quartzJobSaved: { 'zh-CN': '保存成功', 'en-US': 'Saved' },
  quartzJobDeleted: { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
  quartzJobPaused: { 'zh-CN': '已暂停', 'en-US': 'Paused' },
  quartzJobResumed: { 'zh-CN': '已恢复', 'en-US': 'Resumed' },
  quartzJobExecuted: { 'zh-CN': '已执行', 'en-US': 'Run finished' },
  quartzJobCronInvalid: {
    'zh-CN': (p) => `cron: 无法解析的 cron 表达式（${p.detail}）`,
    'en-US': (p) => `cron: not a cron expression this server reads (${p.detail})`,
  },
  quartzJobCronNever: {
    'zh-CN': 'cron: 该表达式以后不会再触发',
    'en-US': 'cron: this schedule never fires again',
  },
  quartzJobLimit: {
    'zh-CN': (p) => `每个公司最多 ${p.max} 个定时任务`,
    'en-US': (p) => `A company may keep at most ${p.max} scheduled jobs`,
  },
  quartzJobRunning: {
    'zh-CN': '任务正在执行，请在本次执行结束后再试',
    'en-US': 'The job is running; try again when this run ends',
  },
  quartzJobTypeDenied: {
    'zh-CN': (p) => `您没有此类任务所需的权限（${p.permission}）`,
    'en-US': (p) => `You lack the permission this kind of job needs (${p.permission})`,
  },
  quartzJobTypeFixed: {
    'zh-CN': 'jobType: 任务类型创建后不可更改',
    'en-US': 'jobType: cannot change once the job is created',
  },
  quartzJobGroupNotFound: {
    'zh-CN': 'params.groupId: 设备分组不存在',
    'en-US': 'params.groupId: no such device group',
  },
  quartzJobCampaignNotFound: {
    'zh-CN': 'params.campaignId: 升级任务不存在',
    'en-US': 'params.campaignId: no such campaign',
  },
  quartzJobReceiverNotFound: {
    'zh-CN': 'params.userIds: 接收人不是本公司的用户',
    'en-US': 'params.userIds: not a user of this company',
  },
  platformJobNotFound: { 'zh-CN': '平台任务不存在', 'en-US': 'Platform job not found' },
  platformJobAdminOnly: {
    'zh-CN': '平台任务仅平台管理员可见',
    'en-US': 'Platform jobs are for platform administrators only',
  },
  platformJobNotPausable: {
    'zh-CN': '该任务在每个节点上运行（缓冲、连接、心跳），不能暂停',
    'en-US': 'This job runs on every node (buffers, sockets, heartbeat) and cannot be paused',
  },
  // What a run did, stored as a key with parameters and shown in the reader's language.
  quartzRunDevicesDone: {
    'zh-CN': (p) =>
      `目标 ${p.targeted} 台：已发送 ${p.sent}，失败 ${p.failed}，离线跳过 ${p.skipped}`,
    'en-US': (p) =>
      `${p.targeted} devices targeted: ${p.sent} sent, ${p.failed} failed, ${p.skipped} offline and skipped`,
  },
  quartzRunConfigStarted: {
    'zh-CN': (p) =>
      `已创建配置任务“${p.campaign}”，共 ${p.targeted} 台设备（离线设备在上线时接收）`,
    'en-US': (p) =>
      `Configuration campaign “${p.campaign}” created for ${p.targeted} devices (offline ones get it when they connect)`,
  },
  quartzRunCampaignResumed: {
    'zh-CN': (p) => `升级任务“${p.campaign}”已开始`,
    'en-US': (p) => `Campaign “${p.campaign}” started`,
  },
  quartzRunCampaignApproved: {
    'zh-CN': (p) => `升级任务“${p.campaign}”的下一批已批准`,
    'en-US': (p) => `Next wave of campaign “${p.campaign}” approved`,
  },
  quartzRunCampaignNotReady: {
    'zh-CN': (p) => `升级任务“${p.campaign}”状态为 ${p.state}，既未暂停也未等待批准`,
    'en-US': (p) =>
      `Campaign “${p.campaign}” is ${p.state}: neither paused nor waiting for approval`,
  },
  quartzRunReportSent: {
    'zh-CN': (p) => `车队报告已发送给 ${p.receivers} 位用户`,
    'en-US': (p) => `Fleet report sent to ${p.receivers} users`,
  },
  quartzRunNoMessageCenter: {
    'zh-CN': '消息中心未启用，无法发送报告',
    'en-US': 'The message center is not available: the report was not sent',
  },
  quartzRunTooManyDevices: {
    'zh-CN': (p) => `目标设备 ${p.count} 台，超过单次上限 ${p.max} 台；请缩小分组或系列`,
    'en-US': (p) =>
      `${p.count} devices targeted, more than the ${p.max} one run may address; narrow the group or series`,
  },
  quartzRunNoDevices: { 'zh-CN': '没有符合条件的设备', 'en-US': 'No device matches' },
  quartzRunPermissionLost: {
    'zh-CN': (p) => `任务执行人 ${p.user} 已不再拥有权限 ${p.permission}`,
    'en-US': (p) => `${p.user}, whom the job acts as, no longer holds ${p.permission}`,
  },
  quartzRunMisfired: {
    'zh-CN': (p) => `错过了计划时间 ${p.due}（超过 ${p.grace} 分钟未执行，服务可能停机），已跳过`,
    'en-US': (p) =>
      `Missed its time ${p.due} by more than ${p.grace} minutes (the server was down?): skipped`,
  },
  quartzRunError: { 'zh-CN': (p) => String(p.text), 'en-US': (p) => String(p.text) },
});

type ScheduledJobMessages = typeof scheduledJobMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends ScheduledJobMessages {}
}
