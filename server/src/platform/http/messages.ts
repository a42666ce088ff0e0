import type { Lang } from './i18n.js';

type Params = Record<string, string | number>;
type Text = string | ((p: Params) => string);

/** Every message a client can see, in both languages. Keys are what services throw. */
const CATALOGUE = {
  badRequest: { 'zh-CN': '请求参数错误', 'en-US': 'Invalid request' },
  unauthorized: { 'zh-CN': 'Token失效，请重新登录', 'en-US': 'Token expired, please log in again' },
  forbidden: { 'zh-CN': '拒绝访问', 'en-US': 'Access denied' },
  notFound: { 'zh-CN': '很抱歉，资源未找到!', 'en-US': 'Sorry, the resource was not found' },
  conflict: { 'zh-CN': '数据冲突', 'en-US': 'Conflict' },
  payloadTooLarge: { 'zh-CN': '请求内容过大', 'en-US': 'Request is too large' },
  unsupportedMediaType: { 'zh-CN': '不支持的内容类型', 'en-US': 'Unsupported content type' },
  tooManyRequests: {
    'zh-CN': '请求过于频繁，请稍后再试',
    'en-US': 'Too many requests, please try again later',
  },
  internalError: { 'zh-CN': '服务器内部错误', 'en-US': 'Internal server error' },
  serviceUnavailable: { 'zh-CN': '服务暂不可用', 'en-US': 'Service unavailable' },

  captchaInvalid: { 'zh-CN': '验证码错误', 'en-US': 'Invalid verification code' },
  loginFailed: { 'zh-CN': '用户名或密码错误', 'en-US': 'Incorrect username or password' },
  loginLocked: {
    'zh-CN': (p) => `登录失败次数过多，账号已锁定，请${p.minutes}分钟后再试`,
    'en-US': (p) =>
      `Too many failed logins: the account is locked, try again in ${p.minutes} minutes`,
  },
  userFrozen: { 'zh-CN': '该用户已冻结', 'en-US': 'This account is frozen' },
  logoutSucceeded: { 'zh-CN': '退出登录成功', 'en-US': 'Logged out' },
  loginSucceeded: { 'zh-CN': '登录成功', 'en-US': 'Logged in' },
  loginLogContent: {
    'zh-CN': (p) => `用户 ${p.username} 登录成功`,
    'en-US': (p) => `User ${p.username} logged in`,
  },
  notYourself: {
    'zh-CN': '只能操作当前登录用户',
    'en-US': 'You can only act on your own account',
  },
  notYourDepartment: {
    'zh-CN': '拒绝访问：不是您的部门',
    'en-US': 'Access denied: not your department',
  },
  companyDenied: {
    'zh-CN': '拒绝访问：不属于该公司',
    'en-US': 'Access denied: not a member of this company',
  },
  oldPasswordWrong: { 'zh-CN': '旧密码输入错误', 'en-US': 'Old password is incorrect' },
  passwordChanged: { 'zh-CN': '密码修改成功', 'en-US': 'Password changed successfully' },
  departSelected: { 'zh-CN': '部门切换成功', 'en-US': 'Department switched' },
  duplicateAvailable: { 'zh-CN': '该值可用！', 'en-US': 'Value is available' },
  duplicateTaken: {
    'zh-CN': '该值不可用，系统中已存在！',
    'en-US': 'This value already exists',
  },
  duplicateNotAllowed: {
    'zh-CN': 'tableName/fieldName: 不支持校验该字段',
    'en-US': 'tableName/fieldName: this field cannot be checked',
  },
  dictNotFound: { 'zh-CN': '字典不存在', 'en-US': 'Dictionary not found' },
  weakPassword: {
    'zh-CN': (p) => `password: ${WEAK_PASSWORD_REASON_ZH[p.reason as WeakPasswordReason]}`,
    'en-US': (p) => `password: ${WEAK_PASSWORD_REASON_EN[p.reason as WeakPasswordReason]}`,
  },
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
} satisfies Record<string, Record<Lang, Text>>;

export type MessageKey = keyof typeof CATALOGUE;

export type WeakPasswordReason = 'same' | 'sameChar' | 'digitsOnly' | 'username' | 'common';

const WEAK_PASSWORD_REASON_EN: Record<WeakPasswordReason, string> = {
  same: 'must differ from the old password',
  sameChar: 'must not repeat a single character',
  digitsOnly: 'must not be only digits',
  username: 'must not be the username',
  common: 'is too common',
};

const WEAK_PASSWORD_REASON_ZH: Record<WeakPasswordReason, string> = {
  same: '不能与旧密码相同',
  sameChar: '不能全部是同一个字符',
  digitsOnly: '不能全部是数字',
  username: '不能与用户名相同',
  common: '过于常见，请换一个',
};

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

export function message(lang: Lang, key: MessageKey, params: Params = {}): string {
  const text: Text = CATALOGUE[key][lang];
  return typeof text === 'function' ? text(params) : text;
}
