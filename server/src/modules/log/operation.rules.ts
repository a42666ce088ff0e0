import type { Lang } from '../../platform/http/i18n.js';

/**
 * What an operation log row says happened, in words: "新增用户 viewer1", "Deleted device". A row
 * stores the action, the subject and the name (`OperationWords`), and the reader's language
 * renders them, so one log reads right in either language.
 */

export type OperateType = 'query' | 'add' | 'edit' | 'delete' | 'import' | 'export' | 'login';

type Words = Record<Lang, string>;

const ACTIONS = {
  query: { 'zh-CN': '查询', 'en-US': 'Queried' },
  add: { 'zh-CN': '新增', 'en-US': 'Added' },
  edit: { 'zh-CN': '修改', 'en-US': 'Edited' },
  delete: { 'zh-CN': '删除', 'en-US': 'Deleted' },
  import: { 'zh-CN': '导入', 'en-US': 'Imported' },
  export: { 'zh-CN': '导出', 'en-US': 'Exported' },
  freeze: { 'zh-CN': '冻结/解冻', 'en-US': 'Froze or unfroze' },
  resetPassword: { 'zh-CN': '重置密码：', 'en-US': 'Reset the password of' },
  changePassword: { 'zh-CN': '修改密码：', 'en-US': 'Changed the password of' },
  authorize: { 'zh-CN': '授权', 'en-US': 'Authorised' },
  dataRule: { 'zh-CN': '设置数据规则：', 'en-US': 'Set data rules of' },
  members: { 'zh-CN': '调整成员：', 'en-US': 'Changed the members of' },
  move: { 'zh-CN': '移动分组：', 'en-US': 'Moved to a group:' },
  switchDepart: { 'zh-CN': '切换部门', 'en-US': 'Switched department' },
  logout: { 'zh-CN': '退出登录', 'en-US': 'Logged out' },
  release: { 'zh-CN': '发布', 'en-US': 'Published' },
  revoke: { 'zh-CN': '撤销', 'en-US': 'Revoked' },
  read: { 'zh-CN': '标记已读：', 'en-US': 'Marked as read:' },
  settings: { 'zh-CN': '修改设置：', 'en-US': 'Changed the settings of' },
  command: { 'zh-CN': '下发命令：', 'en-US': 'Sent a command to' },
  config: { 'zh-CN': '下发配置：', 'en-US': 'Sent a configuration to' },
  regenerate: { 'zh-CN': '重新生成密钥：', 'en-US': 'Regenerated the key of' },
  allow: { 'zh-CN': '重新允许设备：', 'en-US': 'Allowed devices again for' },
  start: { 'zh-CN': '开始', 'en-US': 'Started' },
  approve: { 'zh-CN': '批准', 'en-US': 'Approved' },
  pause: { 'zh-CN': '暂停', 'en-US': 'Paused' },
  resume: { 'zh-CN': '继续', 'en-US': 'Resumed' },
  cancel: { 'zh-CN': '取消', 'en-US': 'Canceled' },
  retry: { 'zh-CN': '重试', 'en-US': 'Retried' },
  upload: { 'zh-CN': '上传', 'en-US': 'Uploaded' },
  other: { 'zh-CN': '操作', 'en-US': 'Changed' },
  ssoLogin: { 'zh-CN': '单点登录：', 'en-US': 'Signed in through single sign-on:' },
} satisfies Record<string, Words>;

export type Action = keyof typeof ACTIONS;

const SUBJECTS = {
  user: { 'zh-CN': '用户', 'en-US': 'user' },
  role: { 'zh-CN': '角色', 'en-US': 'role' },
  position: { 'zh-CN': '职务', 'en-US': 'position' },
  depart: { 'zh-CN': '部门', 'en-US': 'department' },
  departRole: { 'zh-CN': '部门角色', 'en-US': 'department role' },
  permission: { 'zh-CN': '菜单权限', 'en-US': 'menu permission' },
  company: { 'zh-CN': '客户', 'en-US': 'company' },
  announcement: { 'zh-CN': '通告', 'en-US': 'announcement' },
  checkRule: { 'zh-CN': '编码校验规则', 'en-US': 'check rule' },
  sms: { 'zh-CN': '短信', 'en-US': 'SMS' },
  device: { 'zh-CN': '设备', 'en-US': 'device' },
  deviceData: { 'zh-CN': '设备数据保留', 'en-US': 'device data retention' },
  token: { 'zh-CN': 'Token密钥', 'en-US': 'token key' },
  group: { 'zh-CN': '设备分组', 'en-US': 'device group' },
  firmware: { 'zh-CN': '固件', 'en-US': 'firmware' },
  campaign: { 'zh-CN': '批量任务', 'en-US': 'campaign' },
  account: { 'zh-CN': '账号', 'en-US': 'account' },
} satisfies Record<string, Words>;

export type Subject = keyof typeof SUBJECTS;

/** The first path segments (after /api) that name what an operation acts on. */
const SUBJECT_OF_PATH: [RegExp, Subject][] = [
  [/^\/sys\/user\//, 'user'],
  [/^\/sys\/role\//, 'role'],
  [/^\/sys\/position\//, 'position'],
  [/^\/sys\/sysDepartRole\//, 'departRole'],
  [/^\/sys\/(sysDepart|sysDepartPermission)\//, 'depart'],
  [/^\/sys\/permission\/saveDepartPermission/, 'depart'],
  [/^\/sys\/permission\/saveRolePermission/, 'role'],
  [/^\/sys\/permission\//, 'permission'],
  [/^\/sys\/company\//, 'company'],
  [/^\/sys\/(annountCement|sysAnnouncementSend)\//, 'announcement'],
  [/^\/sys\/checkRule\//, 'checkRule'],
  [/^\/sys\/(sms|setting\/sms)/, 'sms'],
  [/^\/device\/data\//, 'deviceData'],
  [/^\/device\/token\//, 'token'],
  [/^\/device\/group\//, 'group'],
  [/^\/device\//, 'device'],
  [/^\/firmware\//, 'firmware'],
  [/^\/campaign\//, 'campaign'],
];

/** The last path segment (the verb of the route) as an action. */
const ACTION_OF_VERB: Record<string, Action> = {
  add: 'add',
  register: 'add',
  edit: 'edit',
  delete: 'delete',
  deleteBatch: 'delete',
  importExcel: 'import',
  exportXls: 'export',
  frozenBatch: 'freeze',
  frozen: 'freeze',
  changePassword: 'resetPassword',
  passwordReset: 'resetPassword',
  updatePassword: 'changePassword',
  saveRolePermission: 'authorize',
  saveDepartPermission: 'authorize',
  saveDeptRolePermission: 'authorize',
  datarule: 'dataRule',
  addPermissionRule: 'dataRule',
  editPermissionRule: 'dataRule',
  deletePermissionRule: 'dataRule',
  saveRoleUsers: 'members',
  editSysDepartWithUser: 'members',
  deleteUserInDepartBatch: 'members',
  moveToGroup: 'move',
  selectDepart: 'switchDepart',
  logout: 'logout',
  release: 'release',
  revoke: 'revoke',
  authorize: 'authorize',
  read: 'read',
  editByAnntIdAndUserId: 'read',
  readAll: 'read',
  settings: 'settings',
  sms: 'settings',
  retention: 'settings',
  command: 'command',
  config: 'config',
  regenerate: 'regenerate',
  allowSns: 'allow',
  approve: 'approve',
  pause: 'pause',
  resume: 'resume',
  cancel: 'cancel',
  retry: 'retry',
  upload: 'upload',
  ssoLogin: 'ssoLogin',
};

const TYPE_OF_ACTION: Partial<Record<Action, OperateType>> = {
  query: 'query',
  add: 'add',
  upload: 'add',
  delete: 'delete',
  import: 'import',
  export: 'export',
  ssoLogin: 'login',
};

/** Fields of a request body that name the thing acted on, most telling first. */
const NAME_FIELDS = ['username', 'roleName', 'sn', 'name', 'title', 'departName', 'code'];

export interface OperationWords {
  action: Action;
  subject: Subject | null;
  name: string | null;
  /** The name of the API key the call was made with; absent for calls made in a session. */
  apiKey?: string;
  /** Records acted on beyond those `name` lists (a batch delete of 30 names the first few). */
  more?: number;
}

/**
 * Where the name of a record lives, for requests that carry only ids (deletes, mostly): the
 * table, its display column, and how the record is tied to the caller's company, so that the log
 * never shows the name of another company's record.
 */
export interface RecordSource {
  table: string;
  column: string;
  tenancy: 'company' | 'userCompany' | 'departCompany' | 'global';
}

const RECORD_OF_PATH: [RegExp, RecordSource][] = [
  [/^\/sys\/user\//, { table: 'sys_user', column: 'username', tenancy: 'userCompany' }],
  [/^\/sys\/role\//, { table: 'sys_role', column: 'role_name', tenancy: 'company' }],
  [/^\/sys\/position\//, { table: 'sys_position', column: 'name', tenancy: 'company' }],
  [
    /^\/sys\/sysDepartRole\//,
    { table: 'sys_depart_role', column: 'role_name', tenancy: 'departCompany' },
  ],
  [/^\/sys\/sysDepart\//, { table: 'sys_depart', column: 'depart_name', tenancy: 'company' }],
  [
    /^\/sys\/permission\/(deletePermissionRule|editPermissionRule)/,
    { table: 'sys_permission_data_rule', column: 'rule_name', tenancy: 'global' },
  ],
  [/^\/sys\/permission\//, { table: 'sys_permission', column: 'name', tenancy: 'global' }],
  [/^\/sys\/company\//, { table: 'sys_company', column: 'name', tenancy: 'global' }],
  [/^\/sys\/annountCement\//, { table: 'sys_announcement', column: 'titile', tenancy: 'company' }],
  [/^\/sys\/checkRule\//, { table: 'sys_check_rule', column: 'rule_name', tenancy: 'global' }],
  [/^\/device\/token\//, { table: 'device_token', column: 'name', tenancy: 'company' }],
  [/^\/device\/group\//, { table: 'device_group', column: 'name', tenancy: 'company' }],
  [/^\/device\/device\//, { table: 'device', column: 'sn', tenancy: 'company' }],
  [/^\/firmware\//, { table: 'firmware', column: 'version', tenancy: 'company' }],
  [/^\/campaign\//, { table: 'campaign', column: 'name', tenancy: 'company' }],
];

/** Names of the first records a request acts on by id, and how many ids it carried. */
export interface RecordNames {
  names: string[];
  total: number;
}

/** Names listed in a row; the rest are counted ("等 N 项" / "and N more"). */
export const NAMES_SHOWN = 5;
const ID = /^[0-9a-f]{32}$/;

function idsIn(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',').map((v) => v.trim());
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * The records a request acts on by id alone (`?id=`, `?ids=a,b`, `{ id }`, `{ ids: [] }`) and
 * where their names live; null when the request names its record itself or has no ids.
 */
export function recordsToName(
  path: string,
  query: unknown,
  body: unknown,
): { source: RecordSource; ids: string[] } | null {
  if (nameIn(body) !== null) return null;
  const source = RECORD_OF_PATH.find(([pattern]) => pattern.test(path))?.[1];
  if (!source) return null;
  const fields = (value: unknown) =>
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const q = fields(query);
  const b = fields(body);
  const ids = [q.id, q.ids, b.id, b.ids].flatMap(idsIn);
  const unique = [...new Set(ids.filter((id) => ID.test(id)))];
  return unique.length > 0 ? { source, ids: unique } : null;
}

function nameIn(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  for (const field of NAME_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim().slice(0, 64);
  }
  return null;
}

/**
 * What a request did, from its route path (without /api), its body, and the verb its route
 * declares (`config.operateType`) when its path does not say it (`/sys/annountCement/doReleaseData`).
 */
export function describeOperation(
  path: string,
  method: string,
  body: unknown,
  declaredVerb?: string,
  records?: RecordNames,
): OperationWords {
  const verb = declaredVerb ?? path.split('/').filter(Boolean).pop() ?? '';
  const subject = SUBJECT_OF_PATH.find(([pattern]) => pattern.test(path))?.[1] ?? null;
  let action = ACTION_OF_VERB[verb];
  // Routes named after their subject (POST /campaign/add starts one; /firmware/upload adds one).
  // Only API keys' reads are logged, as queries.
  if (!action) {
    const byMethod: Record<string, Action> = { DELETE: 'delete', POST: 'add', GET: 'query' };
    action = byMethod[method] ?? 'other';
  }
  if (subject === 'campaign' && action === 'add') action = 'start';
  const named = nameIn(body);
  if (named !== null || !records || records.names.length === 0) {
    return { action, subject, name: named };
  }
  const shown = records.names.slice(0, NAMES_SHOWN).map((n) => n.slice(0, 64));
  const more = records.total - shown.length;
  return { action, subject, name: shown.join(', '), ...(more > 0 ? { more } : {}) };
}

/** The column 查询/新增/修改/删除/导入/导出/登录 of a row. */
export function operateTypeOf(words: OperationWords): OperateType {
  return TYPE_OF_ACTION[words.action] ?? 'edit';
}

/** Rows written before the type was normalized hold a method or a route verb. */
export function normalizedType(stored: string | null, method: string | null): OperateType | null {
  const known: OperateType[] = ['query', 'add', 'edit', 'delete', 'import', 'export', 'login'];
  if (stored && (known as string[]).includes(stored)) return stored as OperateType;
  const byVerb = stored ? ACTION_OF_VERB[stored] : undefined;
  if (byVerb) return TYPE_OF_ACTION[byVerb] ?? 'edit';
  const byMethod: Record<string, OperateType> = { GET: 'query', POST: 'add', PUT: 'edit' };
  const m = (stored ?? method ?? '').toUpperCase();
  if (m === 'DELETE') return 'delete';
  return byMethod[m] ?? null;
}

/** How a row made with an API key says so. */
const API_KEY_MARK: Record<Lang, (name: string) => string> = {
  'zh-CN': (name) => `（API密钥：${name}）`,
  'en-US': (name) => ` (API key: ${name})`,
};

const MORE: Record<Lang, (n: number) => string> = {
  'zh-CN': (n) => ` 等 ${n} 项`,
  'en-US': (n) => ` and ${n} more`,
};

export function renderOperation(words: OperationWords, lang: Lang): string {
  const action = ACTIONS[words.action][lang];
  const subject = words.subject ? SUBJECTS[words.subject][lang] : '';
  const more = words.more ? MORE[lang](words.more) : '';
  const tail = words.name ? ` ${words.name}${more}` : '';
  const via = words.apiKey ? API_KEY_MARK[lang](words.apiKey) : '';
  if (lang === 'en-US') return `${[action, subject].filter(Boolean).join(' ')}${tail}${via}`;
  return `${action}${subject}${tail}${via}`;
}

/** Keys whose values never reach the log (passwords, verification codes, keys). */
const SECRET = /password|captcha|smscode|secret|^key$/i;

const isPlain = (value: unknown): value is object =>
  Array.isArray(value) ||
  (typeof value === 'object' &&
    value !== null &&
    Object.getPrototypeOf(value) === Object.prototype);

/** The query and body as the details drawer shows them, secrets replaced, at most 2,000 chars. */
export function requestParamsOf(query: unknown, body: unknown): string | null {
  const redact = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(redact);
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET.test(k) ? '******' : redact(v)]),
    );
  };
  const parts: Record<string, unknown> = {};
  if (isPlain(query) && Object.keys(query).length > 0) parts.query = redact(query);
  // A multipart upload or a raw file is a stream or bytes: nothing a reader could use.
  if (isPlain(body)) parts.body = redact(body);
  if (Object.keys(parts).length === 0) return null;
  return JSON.stringify(parts).slice(0, 2000);
}
