import { z } from 'zod';
import { ZPageQuery, ZTimestamp, ZId, pageOf } from './common.js';

/** Only these (table, field) pairs may be checked: never SQL from input. */
export const DUPLICATE_CHECK_FIELDS = {
  sys_user: ['username', 'phone', 'email'],
  sys_role: ['role_code'],
  sys_depart: ['org_code'],
  sys_position: ['code'],
  sys_dict: ['dict_code'],
  sys_permission: ['perms'],
  sys_company: ['code'],
} as const;

export const ZDuplicateCheckQuery = z
  .object({
    tableName: z.string().min(1).max(64),
    fieldName: z.string().min(1).max(64),
    fieldVal: z.string().max(256).optional(),
    dataId: z.string().max(64).optional(),
    _t: z.string().optional(),
  })
  .strict();
export type TDuplicateCheckQuery = z.infer<typeof ZDuplicateCheckQuery>;

export const ZLogInfo = z.object({
  todayVisitCount: z.number().int(),
  todayIp: z.number().int(),
  totalVisitCount: z.number().int(),
});
export type TLogInfo = z.infer<typeof ZLogInfo>;

export const ZVisitInfo = z.array(
  z.object({
    ymd: z.string().describe('YYYY-MM-DD'),
    visit: z.number().int(),
    ip: z.number().int(),
  }),
);
export type TVisitInfo = z.infer<typeof ZVisitInfo>;

export const LOG_TYPE = { login: 1, operation: 2 } as const;

export const ZSysLog = z.object({
  id: ZId,
  logType: z.number().int(),
  logContent: z.string(),
  operateType: z
    .string()
    .nullable()
    .describe('query, add, edit, delete, import, export or login (older rows: as stored)'),
  userId: z.string().nullable(),
  username: z.string().nullable(),
  ip: z.string().nullable(),
  method: z.string().nullable(),
  requestUrl: z.string().nullable(),
  status: z.number().int().nullable().describe('HTTP status of the operation'),
  costTime: z.number().int().nullable().describe('Milliseconds'),
  requestParams: z.string().nullable().describe('JSON of the query and body, secrets left out'),
  createTime: ZTimestamp,
});
export type TSysLog = z.infer<typeof ZSysLog>;

export const SYS_LOG_SORT_COLUMNS = ['createTime', 'costTime', 'username'] as const;

export const ZSysLogQuery = ZPageQuery.extend({
  logType: z.coerce.number().int().min(1).max(2).default(1),
  keyWord: z.string().max(100).optional().describe('Substring of content, username or URL'),
  createTime_begin: z.iso.datetime({ offset: true }).optional(),
  createTime_end: z.iso.datetime({ offset: true }).optional(),
  column: z.enum(SYS_LOG_SORT_COLUMNS).default('createTime'),
}).strict();
export type TSysLogQuery = z.infer<typeof ZSysLogQuery>;

export const ZSysLogPage = pageOf(ZSysLog);
export type TSysLogPage = z.infer<typeof ZSysLogPage>;
