import type { Lang } from './i18n.js';

/** One problem of the request that concerns a field: its path (`target.versionFrom`) and rule. */
export type FieldProblem = { field: string; message: string };

/**
 * Names of request fields as a person reads them. A field error's `message` names the field
 * by its label (the key means nothing to a reader); a field without a label is left unnamed,
 * its rule alone being shown.
 */
const FIELD_LABELS: Record<string, Record<Lang, string>> = {
  id: { 'zh-CN': 'ID', 'en-US': 'ID' },
  ids: { 'zh-CN': 'ID', 'en-US': 'IDs' },
  username: { 'zh-CN': '用户名', 'en-US': 'Username' },
  realname: { 'zh-CN': '姓名', 'en-US': 'Name' },
  password: { 'zh-CN': '密码', 'en-US': 'Password' },
  oldpassword: { 'zh-CN': '旧密码', 'en-US': 'Old password' },
  confirmpassword: { 'zh-CN': '确认密码', 'en-US': 'Confirm password' },
  confirmPassword: { 'zh-CN': '确认密码', 'en-US': 'Confirm password' },
  phone: { 'zh-CN': '手机号', 'en-US': 'Phone' },
  email: { 'zh-CN': '邮箱', 'en-US': 'Email' },
  roleCode: { 'zh-CN': '角色编码', 'en-US': 'Role code' },
  roleName: { 'zh-CN': '角色名称', 'en-US': 'Role name' },
  code: { 'zh-CN': '编码', 'en-US': 'Code' },
  name: { 'zh-CN': '名称', 'en-US': 'Name' },
  title: { 'zh-CN': '标题', 'en-US': 'Title' },
  postRank: { 'zh-CN': '职级', 'en-US': 'Rank' },
  sn: { 'zh-CN': 'SN', 'en-US': 'SN' },
  series: { 'zh-CN': '设备系列', 'en-US': 'Series' },
  version: { 'zh-CN': '版本', 'en-US': 'Version' },
  file: { 'zh-CN': '文件', 'en-US': 'File' },
  pageNo: { 'zh-CN': '页码', 'en-US': 'Page' },
  pageSize: { 'zh-CN': '每页条数', 'en-US': 'Page size' },
  startTime: { 'zh-CN': '开始时间', 'en-US': 'Start time' },
  endTime: { 'zh-CN': '结束时间', 'en-US': 'End time' },
  begin: { 'zh-CN': '开始时间', 'en-US': 'Start time' },
  end: { 'zh-CN': '结束时间', 'en-US': 'End time' },
  smscode: { 'zh-CN': '验证码', 'en-US': 'Verification code' },
  captcha: { 'zh-CN': '验证码', 'en-US': 'Verification code' },
};

const FIELD = '[A-Za-z_][\\w.]*';
const STARTS_WITH_FIELD = new RegExp(`^(${FIELD}): (.+)$`, 's');
// A rule may itself hold "; " (a sentence); only "; field: " starts the next problem.
const NEXT_PROBLEM = new RegExp(`; (?=${FIELD}: )`);

/**
 * The field problems of a catalogue message written as `field: rule; other.field: rule`, or none
 * when the message is not about fields.
 */
export function parseFieldProblems(text: string): FieldProblem[] {
  if (!STARTS_WITH_FIELD.test(text)) return [];
  return text.split(NEXT_PROBLEM).flatMap((part) => {
    const match = STARTS_WITH_FIELD.exec(part);
    return match ? [{ field: match[1]!, message: match[2]! }] : [];
  });
}

function labelOf(field: string, lang: Lang): string | undefined {
  const last = field.split('.').pop() ?? field;
  return FIELD_LABELS[field]?.[lang] ?? FIELD_LABELS[last]?.[lang];
}

function names(message: string, label: string): boolean {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // Chinese has no word boundaries; an English label must be a whole word ("ID", not "invalid").
  return /^[\x20-\x7e]+$/.test(label)
    ? new RegExp(`\\b${escaped}\\b`, 'i').test(message)
    : message.includes(label);
}

/**
 * The problems as one sentence for a person: each rule after its field's label (left out when
 * the rule already names it, as in "角色编码已存在"), never the field's key.
 */
export function readableProblems(problems: FieldProblem[], lang: Lang): string {
  return problems
    .map(({ field, message }) => {
      const label = labelOf(field, lang);
      if (!label || names(message, label)) return message;
      return lang === 'en-US' ? `${label}: ${message}` : `${label}：${message}`;
    })
    .join(lang === 'en-US' ? '; ' : '；');
}
