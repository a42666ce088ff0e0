import { defineMessages } from '../../platform/http/messages.js';

type AudienceField = 'userIds' | 'departIds' | 'roleIds';
const AUDIENCE_EN: Record<AudienceField, string> = {
  userIds: 'users',
  departIds: 'departments',
  roleIds: 'roles',
};
const AUDIENCE_ZH: Record<AudienceField, string> = {
  userIds: '用户',
  departIds: '部门',
  roleIds: '角色',
};

/** What this module's services and routes say to a client, in both languages. */
export const announcementMessages = defineMessages({
  announcementNotFound: { 'zh-CN': '通告不存在', 'en-US': 'Announcement not found' },
  announcementAudienceInvalid: {
    'zh-CN': (p) => `${p.field}: 只能选择当前公司的${AUDIENCE_ZH[p.field as AudienceField]}`,
    'en-US': (p) => `${p.field}: choose ${AUDIENCE_EN[p.field as AudienceField]} of this company`,
  },
  announcementAudienceEmpty: {
    'zh-CN': (p) => `${p.field}: 请至少选择一个接收对象`,
    'en-US': (p) => `${p.field}: choose at least one recipient`,
  },
  announcementTimeRange: {
    'zh-CN': 'endTime: 结束时间必须晚于开始时间',
    'en-US': 'endTime: must be later than startTime',
  },
  announcementOpenPage: {
    'zh-CN': 'openPage: 打开方式为链接或组件时必须填写，链接须以 http://、https:// 或 / 开头',
    'en-US':
      'openPage: required when openType is url or component; a url starts with http://, https:// or /',
  },
  announcementNotDraft: {
    'zh-CN': '只有草稿可以修改或发布',
    'en-US': 'Only drafts can be edited or published',
  },
  announcementNotPublished: {
    'zh-CN': '只有已发布的通告可以撤销',
    'en-US': 'Only published announcements can be revoked',
  },
  announcementPublished: { 'zh-CN': '发布成功', 'en-US': 'Published' },
  announcementRevoked: { 'zh-CN': '撤销成功', 'en-US': 'Revoked' },
  announcementAllRead: { 'zh-CN': '已全部标记为已读', 'en-US': 'All marked as read' },
  deviceOfflineAlertTitle: {
    'zh-CN': (p) => `${p.count} 台设备离线`,
    'en-US': (p) => `${p.count} device(s) offline`,
  },
  deviceOfflineAlertContent: {
    'zh-CN': (p) => `以下设备已离线超过 ${p.seconds} 秒：${p.devices}`,
    'en-US': (p) => `These devices have been offline for more than ${p.seconds} s: ${p.devices}`,
  },
  deviceUnstableAlertTitle: {
    'zh-CN': (p) => `${p.count} 台设备连接不稳定`,
    'en-US': (p) => `${p.count} device(s) with an unstable connection`,
  },
  deviceUnstableAlertContent: {
    'zh-CN': (p) =>
      `以下设备在 ${p.minutes} 分钟内断线 ${p.times} 次以上：${p.devices}。设备稳定 ${p.minutes} 分钟之前不再提醒。`,
    'en-US': (p) =>
      `These devices went offline ${p.times} times or more within ${p.minutes} minutes: ${p.devices}. No further alerts until they have been stable for ${p.minutes} minutes.`,
  },
  deviceAlertMore: {
    'zh-CN': (p) => `等 ${p.count} 台`,
    'en-US': (p) => `and ${p.count} more`,
  },
});

type AnnouncementMessages = typeof announcementMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends AnnouncementMessages {}
}
