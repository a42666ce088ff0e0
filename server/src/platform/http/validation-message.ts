import type { FastifySchemaValidationError } from 'fastify';
import type { FieldProblem } from './field-problems.js';
import type { Lang } from './i18n.js';

/**
 * Turns zod issues (as fastify-type-provider-zod reports them) into field problems in the
 * request's language, e.g. `{ field: 'password', message: 'must be at least 8 characters' }`.
 */

type Issue = FastifySchemaValidationError;
type IssueParams = Record<string, unknown>;

/** Custom messages written in the contracts, in Chinese. */
export const CONTRACT_MESSAGES_ZH: Record<string, string> = {
  'must be 8-64 letters, digits, _ or -': '必须是 8-64 位字母、数字、_ 或 -',
  'letters and digits only': '只能包含字母和数字',
  'must equal password': '两次输入的密码不一致',
  'must be a 32-character id': '必须是 32 位 ID',
  'must be a dictionary code (letters, digits, _)': '必须是字典编码（字母、数字、_）',
  'Your phone number format is incorrect.': '手机号码格式不正确',
  'must be 6 digits': '必须是 6 位数字',
  'letters, digits, _ or - only': '只能包含字母、数字、_ 或 -',
  'is required': '不能为空',
  'must be dotted numbers such as 1.2.3, optionally -suffix':
    '必须是以点分隔的数字，如 1.2.3，可带 -后缀',
  'must be HH:mm': '必须是 HH:mm 格式',
  'start and end must differ': '开始和结束时间不能相同',
  'must rise and end at 100 (cumulative percentages)': '必须逐批递增并以 100 结束（累计百分比）',
  'required for an upgrade': '升级任务必须填写',
  'required for configuration': '批量配置必须填写',
  'must change something': '至少要修改一项',
  'must be an IANA time zone such as Asia/Shanghai': '必须是 IANA 时区，如 Asia/Shanghai',
  // Issue 16: every custom message of packages/contracts (validation-message.test.ts checks).
  'at most 64 values': '最多 64 个值',
  'comma-separated codes like device:list': '必须是以逗号分隔的编码，如 device:list',
  'letters, digits and _, starting with a letter': '只能包含字母、数字和 _，且以字母开头',
  'letters, digits, _ and -': '只能包含字母、数字、_ 和 -',
  'letters, digits, _ and - only': '只能包含字母、数字、_ 和 -',
  'low threshold must be below high threshold': '低阈值必须小于高阈值',
  'lowercase letters, digits and - only': '只能包含小写字母、数字和 -',
  'must be 1 to 64 letters, digits, _ or -': '必须是 1-64 位字母、数字、_ 或 -',
  'must be a letter then up to 31 letters, digits or _':
    '必须以字母开头，后跟最多 31 位字母、数字或 _',
  'must be a mobile number': '必须是手机号码',
  'must be a phone number': '必须是电话号码',
  'must be a valid email address': '必须是有效的邮箱地址',
  'must be a valid mobile number': '必须是有效的手机号码',
  'must be an IPv4 address': '必须是 IPv4 地址',
  'must be at least 1': '不能小于 1',
  'must be at most 3650': '不能大于 3650',
  'must be comma-separated ids': '必须是以逗号分隔的 ID',
  'must be devices, campaigns, alarms or device:{id}':
    '必须是 devices、campaigns、alarms 或 device:{id}',
  'is required for above and below': '“高于”和“低于”必须填写阈值',
  'is required for outside': '“超出范围”必须填写此项',
  'must be greater than low': '必须大于下限',
  'must be a time such as 22:00': '必须是时间，如 22:00',
  'must differ from start': '不能与开始时间相同',
  'must be lowercase letters, digits, _ or ., starting with a letter':
    '只能包含小写字母、数字、_ 或 .，且以字母开头',
  'must not contain control characters': '不能包含控制字符',
  // Two-factor login, API keys and single sign-on (issue 14).
  'a current code or the password is required': '需要当前动态验证码或密码',
  'must be 1-100 ids separated by commas': '必须是以逗号分隔的 1-100 个 ID',
  'must be a 6-digit code or a recovery code (xxxxx-xxxxx)':
    '必须是 6 位动态验证码或恢复码（xxxxx-xxxxx）',
  'must be an ISO 8601 date-time': '必须是 ISO 8601 时间',
  'must be an http(s):// URL': '必须是 http(s):// 地址',
  'must be the challenge the login returned': '必须是登录返回的验证凭据',
  'must name at least one permission code': '至少选择一个权限编码',
  'must name at most 500 permission codes': '最多选择 500 个权限编码',
  'must not be empty': '不能为空',
  'must be a colour name (blue) or #rrggbb': '必须是颜色名（如 blue）或 #rrggbb',
  'must be 2–64 lowercase letters, digits or underscores, starting with a letter':
    '必须是 2–64 位小写字母、数字或下划线，以字母开头',
  'is not a variable name': '不是有效的变量名',
  'must have at most 50 variables': '最多 50 个变量',
  'must be an http(s) URL': '必须是 http(s) 地址',
  'must have 5 or 6 fields': '必须有 5 或 6 个字段',
  'the seconds field must be one number (at most one run a minute)':
    '秒字段必须是单个数字（每分钟最多运行一次）',
  'choose a group or a series': '请选择分组或系列',
  'must be a job name such as device-command.timeout-sweep':
    '必须是任务名，如 device-command.timeout-sweep',
  // Online forms (issue 20), including recordSchema's messages that no schema walk reaches.
  'must be 2-32 lowercase letters, digits or _, starting with a letter':
    '必须是 2-32 位小写字母、数字或 _，且以字母开头',
  'must be 1-32 lowercase letters, digits or _, starting with a letter':
    '必须是 1-32 位小写字母、数字或 _，且以字母开头',
  'must be a date such as 2026-01-31': '必须是日期，如 2026-01-31',
  'must be an extension such as .pdf': '必须是扩展名，如 .pdf',
  'must be unique in the form': '在表单中不能重复',
  'not available for this type': '此类型不支持',
  'must not be less than the minimum': '不能小于最小值',
  'does not satisfy the field’s rules': '不符合字段规则',
  'does not match the required format': '格式不符合要求',
  'has too many decimal places': '小数位数过多',
  'must contain {z}, {x} and {y}': '必须包含 {z}、{x} 和 {y}',
  // Base data (issue 20).
  'latitude and longitude go together: give both or neither': '纬度和经度需同时填写或同时留空',
  'must not be before the contract start': '不能早于合同开始日期',
  // Device tags (issue 20).
  'must not contain a comma': '不能包含逗号',
  'name devices, a group, a series or tags': '请选择设备、分组、系列或标签',
};

const TYPE_ZH: Record<string, string> = {
  string: '字符串',
  number: '数字',
  boolean: '布尔值',
  object: '对象',
  array: '数组',
  int: '整数',
};

function fieldOf(issue: Issue, context: string | undefined): string {
  const path = issue.instancePath.split('/').filter(Boolean).join('.');
  return path || context || 'request';
}

function isMissing(issue: Issue): boolean {
  return issue.keyword === 'invalid_type' && /received undefined$/.test(issue.message ?? '');
}

function sizeRule(lang: Lang, params: IssueParams, bound: 'min' | 'max'): string {
  const n = String(bound === 'min' ? params.minimum : params.maximum);
  const origin = params.origin;
  const exclusive = params.inclusive === false;
  if (lang === 'en-US') {
    if (origin === 'string')
      return `must be ${bound === 'min' ? 'at least' : 'at most'} ${n} characters`;
    if (origin === 'array' || origin === 'set') {
      return `must have ${bound === 'min' ? 'at least' : 'at most'} ${n} items`;
    }
    if (exclusive) return `must be ${bound === 'min' ? 'greater' : 'less'} than ${n}`;
    return `must be ${bound === 'min' ? 'at least' : 'at most'} ${n}`;
  }
  if (origin === 'string') return `${bound === 'min' ? '至少' : '最多'} ${n} 个字符`;
  if (origin === 'array' || origin === 'set') {
    return `${bound === 'min' ? '不能少于' : '不能超过'} ${n} 项`;
  }
  if (exclusive) return `必须${bound === 'min' ? '大于' : '小于'} ${n}`;
  return `${bound === 'min' ? '不能小于' : '不能大于'} ${n}`;
}

function ruleOf(issue: Issue, lang: Lang): string {
  const params = (issue.params ?? {}) as IssueParams;
  const en = lang === 'en-US';
  const custom = issue.message ?? '';
  switch (issue.keyword) {
    case 'invalid_type': {
      if (isMissing(issue)) return en ? 'is required' : '不能为空';
      const expected = String(params.expected);
      return en ? `must be a ${expected}` : `必须是${TYPE_ZH[expected] ?? expected}`;
    }
    case 'too_small':
      return sizeRule(lang, params, 'min');
    case 'too_big':
      return sizeRule(lang, params, 'max');
    case 'invalid_format': {
      if (params.format === 'regex')
        return en ? custom : (CONTRACT_MESSAGES_ZH[custom] ?? '格式不正确');
      if (params.format === 'datetime')
        return en ? 'must be an ISO 8601 date-time' : '必须是 ISO 8601 时间';
      return en ? `must be a valid ${String(params.format)}` : '格式不正确';
    }
    case 'invalid_value': {
      const values = Array.isArray(params.values) ? params.values.map(String).join(', ') : '';
      return en ? `must be one of: ${values}` : `必须是以下之一：${values}`;
    }
    case 'custom':
      return en ? custom : (CONTRACT_MESSAGES_ZH[custom] ?? custom);
    default:
      return en ? 'is invalid' : '无效';
  }
}

export function validationProblems(
  issues: Issue[],
  context: string | undefined,
  lang: Lang,
): FieldProblem[] {
  return issues.slice(0, 3).flatMap((issue) => {
    if (issue.keyword === 'unrecognized_keys') {
      const params = (issue.params ?? {}) as IssueParams;
      const keys = Array.isArray(params.keys) ? params.keys.map(String) : [];
      const prefix = issue.instancePath.split('/').filter(Boolean).join('.');
      // The key is the field here: a reader must learn which one the server did not expect.
      return keys.map((k) => ({
        field: `${prefix ? `${prefix}.` : ''}${k}`,
        message: lang === 'en-US' ? `${k} is not an allowed field` : `不允许的字段 ${k}`,
      }));
    }
    return [{ field: fieldOf(issue, context), message: ruleOf(issue, lang) }];
  });
}
