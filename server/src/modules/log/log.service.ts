import {
  LOG_TYPE,
  type TLogInfo,
  type TSysLog,
  type TSysLogQuery,
  type TVisitInfo,
} from '@blrms/contracts';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { SysLogTable } from '../../platform/db/schema.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message } from '../../platform/http/messages.js';
import type { LogRepository } from './log.repository.js';
import {
  describeOperation,
  NAMES_SHOWN,
  normalizedType,
  operateTypeOf,
  recordsToName,
  renderOperation,
  requestParamsOf,
  type OperationWords,
  type RecordNames,
} from './operation.rules.js';
import { pageResult } from '../../platform/http/paging.js';

const VISIT_DAYS = 7;
const LAST_LOGINS = 10;
const MAX_URL_LENGTH = 1000;

export interface OperationRecord {
  scope: Scope;
  method: string;
  path: string;
  status: number;
  ip: string;
  costMs: number;
  declaredVerb: string | undefined;
  query: unknown;
  body: unknown;
  /** The records the request acts on by id, named before it ran (see `namesBefore`). */
  records?: RecordNames;
}

const API_PREFIX = '/api';

function wordsOf(row: SysLogTable): OperationWords | null {
  if (!row.content_params) return null;
  try {
    return JSON.parse(row.content_params) as OperationWords;
  } catch {
    return null;
  }
}

/** Login rows, and operation rows written since they keep their words, read in the reader's language. */
function contentOf(row: SysLogTable, lang: Lang): string {
  if (row.log_type === LOG_TYPE.login && row.username) {
    return message(lang, 'loginLogContent', { username: row.username });
  }
  const words = wordsOf(row);
  return words ? renderOperation(words, lang) : row.log_content;
}

export interface SysLogPage {
  records: TSysLog[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

function toSysLog(row: SysLogTable, lang: Lang): TSysLog {
  return {
    id: row.id,
    logType: row.log_type,
    logContent: contentOf(row, lang),
    operateType:
      row.log_type === LOG_TYPE.login ? 'login' : normalizedType(row.operate_type, row.method),
    userId: row.user_id,
    username: row.username,
    ip: row.ip,
    method: row.method,
    requestUrl: row.request_url,
    status: row.status,
    costTime: row.cost_time,
    requestParams: row.request_params,
    createTime: new Date(row.create_time).toISOString(),
  };
}

/** Local midnight `daysAgo` days before the day of `now`. */
function startOfDay(now: number, daysAgo = 0): number {
  const d = new Date(now);
  d.setHours(0, 0, 0, 0);
  d.setDate(d.getDate() - daysAgo);
  return d.getTime();
}

function ymd(time: number): string {
  const d = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export class LogService {
  constructor(
    private readonly repository: LogRepository,
    private readonly clock: Clock,
  ) {}

  async recordLogin(input: { companyId: string; userId: string; username: string; ip: string }) {
    await this.repository.insert({
      id: newId(),
      company_id: input.companyId,
      log_type: LOG_TYPE.login,
      log_content: message('en-US', 'loginLogContent', { username: input.username }),
      operate_type: 'login',
      user_id: input.userId,
      username: input.username,
      ip: input.ip,
      method: 'POST',
      request_url: '/api/sys/login',
      status: 200,
      cost_time: null,
      create_time: this.clock(),
      content_params: null,
      request_params: null,
    });
  }

  /**
   * What happened in words (kept as words, rendered when read), and the request's parameters
   * with passwords and codes left out.
   */
  async recordOperation(op: OperationRecord) {
    const path = op.path.slice(0, MAX_URL_LENGTH);
    const route = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
    const described = describeOperation(route, op.method, op.body, op.declaredVerb, op.records);
    const words = op.scope.apiKey ? { ...described, apiKey: op.scope.apiKey.name } : described;
    await this.repository.insert({
      id: newId(),
      company_id: op.scope.companyId,
      log_type: LOG_TYPE.operation,
      // The Chinese text stays searchable by the list's keyword filter.
      log_content: renderOperation(words, 'zh-CN'),
      operate_type: operateTypeOf(words),
      user_id: op.scope.userId,
      username: op.scope.username,
      ip: op.ip,
      method: op.method,
      request_url: path,
      status: op.status,
      cost_time: Math.round(op.costMs),
      create_time: this.clock(),
      content_params: JSON.stringify(words),
      request_params: requestParamsOf(op.query, op.body),
    });
  }

  /**
   * The names of the records a request acts on by id alone, read before it runs: a delete
   * leaves nothing to read afterwards, and "删除设备 R40A0001" says more than "删除设备".
   */
  async namesBefore(
    scope: Scope,
    path: string,
    query: unknown,
    body: unknown,
  ): Promise<RecordNames | undefined> {
    const route = path.startsWith(API_PREFIX) ? path.slice(API_PREFIX.length) : path;
    const target = recordsToName(route, query, body);
    if (!target) return undefined;
    const names = await this.repository.recordNames(
      target.source,
      target.ids.slice(0, NAMES_SHOWN),
      scope.companyId,
    );
    return { names, total: target.ids.length };
  }

  async list(scope: Scope, query: TSysLogQuery, lang: Lang): Promise<SysLogPage> {
    const { records, total } = await this.repository.page(
      scope.companyId,
      {
        logType: query.logType,
        keyWord: query.keyWord,
        from: query.createTime_begin ? Date.parse(query.createTime_begin) : undefined,
        to: query.createTime_end ? Date.parse(query.createTime_end) : undefined,
      },
      query,
    );
    return pageResult(
      records.map((row) => toSysLog(row, lang)),
      total,
      query,
    );
  }

  async loginInfo(scope: Scope): Promise<TLogInfo> {
    const today = startOfDay(this.clock());
    const [todayStats, allTime] = await Promise.all([
      this.repository.loginStats(scope.companyId, today, null),
      this.repository.loginStats(scope.companyId, null, null),
    ]);
    return {
      todayVisitCount: todayStats.visits,
      todayIp: todayStats.ips,
      totalVisitCount: allTime.visits,
    };
  }

  /** One entry per day, oldest first, today included; days without logins are zeros. */
  async visitInfo(scope: Scope): Promise<TVisitInfo> {
    const now = this.clock();
    const days = Array.from({ length: VISIT_DAYS }, (_, i) => VISIT_DAYS - 1 - i);
    return Promise.all(
      days.map(async (daysAgo) => {
        const from = startOfDay(now, daysAgo);
        const stats = await this.repository.loginStats(
          scope.companyId,
          from,
          startOfDay(now, daysAgo - 1),
        );
        return { ymd: ymd(from), visit: stats.visits, ip: stats.ips };
      }),
    );
  }

  async lastLogins(scope: Scope, lang: Lang): Promise<TSysLog[]> {
    const rows = await this.repository.lastLoginsOf(scope.userId, LAST_LOGINS);
    return rows.map((row) => toSysLog(row, lang));
  }
}
