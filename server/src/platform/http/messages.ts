import type { Lang } from './i18n.js';

type Params = Record<string, string | number>;
type Text = string | ((p: Params) => string);
type Catalogue = Record<string, Record<Lang, Text>>;

/**
 * Every message a client can see, by key, in both languages; keys are what services throw. Each
 * module declares its own in `<module>.messages.ts` with `defineMessages`, which adds them here at
 * run time and to this interface (declaration merging) at compile time, so a key that no module
 * declares does not compile. What several modules or the platform say stays in this file.
 */
export interface MessageCatalogue extends PlatformMessages {}

const registered = new Map<string, Record<Lang, Text>>();

/** Adds a module's messages to the catalogue; a key declared twice is a programming error. */
export function defineMessages<const C extends Catalogue>(messages: C): C {
  for (const [key, texts] of Object.entries(messages)) {
    if (registered.has(key)) throw new Error(`message key declared twice: ${key}`);
    registered.set(key, texts);
  }
  return messages;
}

export const platformMessages = defineMessages({
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
  databaseUnavailable: {
    'zh-CN': '数据库暂不可用，请稍后再试',
    'en-US': 'The database is unavailable; please try again later',
  },
  userFrozen: { 'zh-CN': '该用户已冻结', 'en-US': 'This account is frozen' },
  loginSucceeded: { 'zh-CN': '登录成功', 'en-US': 'Logged in' },
  companyDenied: {
    'zh-CN': '拒绝访问：不属于该公司',
    'en-US': 'Access denied: not a member of this company',
  },
  duplicateAvailable: { 'zh-CN': '该值可用！', 'en-US': 'Value is available' },
  importFileMissing: { 'zh-CN': 'file: 请上传文件', 'en-US': 'file: is required' },
  importFileTooLarge: {
    'zh-CN': (p) => `file: 文件不能超过 ${p.mb} MB`,
    'en-US': (p) => `file: must be at most ${p.mb} MB`,
  },
  importFileUnreadable: {
    'zh-CN': 'file: 无法读取文件内容',
    'en-US': 'file: the file could not be read',
  },
  // Spreadsheet imports (platform/sheet): zip bombs and one import at a time per company.
  sheetUncompressedTooLarge: {
    'zh-CN': (p) => `file: 文件解压后超过 ${p.mb} MB，拒绝导入`,
    'en-US': (p) => `file: the file would uncompress to more than ${p.mb} MB and is refused`,
  },
  importBusy: {
    'zh-CN': '已有导入正在进行，请等它完成后再试',
    'en-US': 'An import is already running for your company; try again when it has finished',
  },
  deleted: { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
  saved: { 'zh-CN': '保存成功', 'en-US': 'Saved' },
  weakPassword: {
    'zh-CN': (p) => `password: ${WEAK_PASSWORD_REASON_ZH[p.reason as WeakPasswordReason]}`,
    'en-US': (p) => `password: ${WEAK_PASSWORD_REASON_EN[p.reason as WeakPasswordReason]}`,
  },
  // Organisation: departments, department roles, positions, companies (issue 6, helper C).
  orgSaved: { 'zh-CN': '保存成功', 'en-US': 'Saved' },
  orgDeleted: { 'zh-CN': '删除成功', 'en-US': 'Deleted' },
  orgCodeExhausted: {
    'zh-CN': '同级部门数量已达上限',
    'en-US': 'No more departments can be added at this level',
  },
  companyFrozen: {
    'zh-CN': '该公司已冻结，无法登录',
    'en-US': 'This company is frozen: its users cannot log in',
  },
  // Administration of login accounts, roles and the menu catalogue (issue 6, helper B).
  adminSaved: { 'zh-CN': '保存成功！', 'en-US': 'Saved' },
  adminDeleted: { 'zh-CN': '删除成功!', 'en-US': 'Deleted' },
  adminPlatformOnly: {
    'zh-CN': '拒绝访问：仅平台管理员可执行此操作',
    'en-US': 'Access denied: platform administrators only',
  },
  adminPermissionNotHeld: {
    'zh-CN': '拒绝访问：不能授予或收回您自己没有的权限',
    'en-US': 'Access denied: you cannot grant or revoke permissions you do not hold',
  },
  // Self-service accounts (register, phone login, password reset) and check rules.
  usernameExists: { 'zh-CN': '用户名已存在!', 'en-US': 'Username already exists!' },
  emailExists: { 'zh-CN': '邮箱已存在!', 'en-US': 'Email already exists!' },
  phoneExists: { 'zh-CN': '手机号已存在!', 'en-US': 'Contact number already exists!' },
  smsUnavailable: {
    'zh-CN': '短信服务暂不可用，请稍后再试',
    'en-US': 'The SMS service is unavailable, please try again later',
  },
  apiKeyNotAllowed: {
    'zh-CN': '此操作不能使用API密钥，请登录后操作',
    'en-US': 'API keys cannot be used for this operation; sign in instead',
  },
  apiKeyForbidden: {
    'zh-CN': (p) => `API密钥没有权限：${p.code}`,
    'en-US': (p) => `The API key does not hold the permission ${p.code}`,
  },
  apiKeyRateLimited: {
    'zh-CN': (p) => `API密钥调用过于频繁，请 ${p.seconds} 秒后再试`,
    'en-US': (p) => `Too many calls with this API key; try again in ${p.seconds} seconds`,
  },
  twoFactorCodeInvalid: { 'zh-CN': '动态验证码错误', 'en-US': 'Incorrect authentication code' },
});

type PlatformMessages = typeof platformMessages;

export type MessageKey = keyof MessageCatalogue;

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

export function message(lang: Lang, key: MessageKey, params: Params = {}): string {
  const text = registered.get(key)?.[lang];
  // The type admits every module's keys; a key missing here means its messages file has not been
  // imported yet (a label read as a file loads, before its module's messages), which would
  // otherwise show the key to users.
  if (text === undefined) throw new Error(`message ${key} read before its module declared it`);
  return typeof text === 'function' ? text(params) : text;
}
