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
  operateType: string;
}

export interface SysLogPage {
  records: TSysLog[];
  total: number;
  size: number;
  current: number;
  pages: number;
}

/** Login rows are written by the server, so they are shown in the reader's language. */
function toSysLog(row: SysLogTable, lang: Lang): TSysLog {
  return {
    id: row.id,
    logType: row.log_type,
    logContent:
      row.log_type === LOG_TYPE.login && row.username
        ? message(lang, 'loginLogContent', { username: row.username })
        : row.log_content,
    operateType: row.operate_type,
    userId: row.user_id,
    username: row.username,
    ip: row.ip,
    method: row.method,
    requestUrl: row.request_url,
    status: row.status,
    costTime: row.cost_time,
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
    });
  }

  /** Only the method, path and outcome are kept: bodies carry passwords and never reach the log. */
  async recordOperation(op: OperationRecord) {
    const path = op.path.slice(0, MAX_URL_LENGTH);
    await this.repository.insert({
      id: newId(),
      company_id: op.scope.companyId,
      log_type: LOG_TYPE.operation,
      log_content: `${op.method} ${path}`,
      operate_type: op.operateType.slice(0, 32),
      user_id: op.scope.userId,
      username: op.scope.username,
      ip: op.ip,
      method: op.method,
      request_url: path,
      status: op.status,
      cost_time: Math.round(op.costMs),
      create_time: this.clock(),
    });
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
    return {
      records: records.map((row) => toSysLog(row, lang)),
      total,
      size: query.pageSize,
      current: query.pageNo,
      pages: Math.ceil(total / query.pageSize),
    };
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
