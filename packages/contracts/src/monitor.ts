import { z } from 'zod';
import { ZId, ZPageQuery, ZTimestamp, pageOf } from './common.js';

/*
 * System monitor (系统监控) and online users (在线用户): platform administrators only. Every server
 * node publishes a snapshot of itself every few seconds; any node answers with all of them.
 */

/** How often each node publishes its snapshot, and how long a silent node stays listed. */
export const MONITOR_SNAPSHOT_INTERVAL_MS = 5_000;
export const MONITOR_NODE_EXPIRY_MS = 30_000;
/** Points of history kept per node (5 minutes at one snapshot every 5 s). */
export const MONITOR_HISTORY_POINTS = 60;
/** Requests the trace keeps per node. */
export const MONITOR_TRACE_SIZE = 200;
/** Slowest statements each node keeps, and for how long one is "recent". */
export const MONITOR_SLOW_QUERIES = 10;
export const MONITOR_SLOW_QUERY_WINDOW_MS = 15 * 60_000;

export const ZSlowQuery = z.object({
  sql: z.string().describe('Statement text with placeholders, never parameter values'),
  durationMs: z.number(),
  at: ZTimestamp.describe('When its slowest run ended'),
  count: z.number().int().describe('Runs of this text at least this slow since it was kept'),
});
export type TSlowQuery = z.infer<typeof ZSlowQuery>;

export const ZDbPool = z.object({
  total: z.number().int(),
  idle: z.number().int(),
  waiting: z.number().int().describe('Requests waiting for a connection'),
  max: z.number().int(),
});
export type TDbPool = z.infer<typeof ZDbPool>;

export const ZDiskUsage = z.object({
  path: z.string(),
  totalBytes: z.number(),
  usedBytes: z.number(),
  freeBytes: z.number().describe('Available to the server process'),
});

export const ZMqttNodeStats = z.object({
  broker: z.enum(['embedded', 'external', 'none']),
  /** Devices connected to this node's embedded broker; null with an external broker. */
  connected: z.number().int().nullable(),
  inPerSecond: z.number(),
  outPerSecond: z.number(),
  receivedTotal: z.number().int(),
  sentTotal: z.number().int(),
  refusedTotal: z.number().int().describe('Refused connects since the node started'),
});
export type TMqttNodeStats = z.infer<typeof ZMqttNodeStats>;

/** One node's state at one moment (what it publishes every few seconds). */
export const ZMonitorSnapshot = z.object({
  nodeId: z.string(),
  host: z.string(),
  pid: z.number().int(),
  at: ZTimestamp,
  startedAt: ZTimestamp,
  nodeVersion: z.string(),
  serverVersion: z.string(),
  uptimeSeconds: z.number(),
  cpuPercent: z.number().describe('Share of one core used since the previous snapshot'),
  rssBytes: z.number(),
  heapUsedBytes: z.number(),
  heapTotalBytes: z.number(),
  eventLoopLagP99Ms: z.number(),
  httpConnections: z.number().int().describe('Open HTTP connections (keep-alive included)'),
  wsClients: z.number().int().describe('Console websockets'),
  mqtt: ZMqttNodeStats,
  dbPool: ZDbPool.nullable().describe('null on SQLite (one connection, no pool)'),
  slowQueries: z.array(ZSlowQuery),
  disk: ZDiskUsage.nullable(),
  diskError: z.string().nullable(),
});
export type TMonitorSnapshot = z.infer<typeof ZMonitorSnapshot>;

/** A point of a node's charts. */
export const ZMonitorPoint = z.object({
  at: ZTimestamp,
  cpuPercent: z.number(),
  rssBytes: z.number(),
  heapUsedBytes: z.number(),
  eventLoopLagP99Ms: z.number(),
  mqttInPerSecond: z.number(),
  mqttOutPerSecond: z.number(),
  mqttConnected: z.number().int().nullable(),
  dbPoolTotal: z.number().int().nullable(),
  dbPoolWaiting: z.number().int().nullable(),
});
export type TMonitorPoint = z.infer<typeof ZMonitorPoint>;

export const ZMonitorNode = z.object({
  snapshot: ZMonitorSnapshot,
  history: z.array(ZMonitorPoint),
});
export type TMonitorNode = z.infer<typeof ZMonitorNode>;

export const ZMonitorNodes = z.object({
  answeredBy: z.string().describe('The node that answered'),
  nodes: z.array(ZMonitorNode),
});
export type TMonitorNodes = z.infer<typeof ZMonitorNodes>;

export const ZMonitorDatabase = z.object({
  dialect: z.enum(['sqlite', 'postgres']),
  sizeBytes: z.number().nullable(),
  sizeError: z.string().nullable(),
  nodes: z.array(
    z.object({ nodeId: z.string(), pool: ZDbPool.nullable(), slowQueries: z.array(ZSlowQuery) }),
  ),
});
export type TMonitorDatabase = z.infer<typeof ZMonitorDatabase>;

export const ZMonitorRedis = z.object({
  configured: z.boolean(),
  ok: z.boolean(),
  error: z.string().nullable(),
  version: z.string().nullable(),
  usedMemoryBytes: z.number().nullable(),
  peakMemoryBytes: z.number().nullable(),
  maxMemoryBytes: z.number().nullable(),
  connectedClients: z.number().int().nullable(),
  blockedClients: z.number().int().nullable(),
  pubsubChannels: z.number().int().nullable(),
  uptimeSeconds: z.number().nullable(),
});
export type TMonitorRedis = z.infer<typeof ZMonitorRedis>;

export const ZTracedRequest = z.object({
  at: ZTimestamp,
  method: z.string(),
  path: z.string().describe('Route pattern, or the path without its query string'),
  status: z.number().int(),
  durationMs: z.number(),
  user: z.string().nullable(),
});
export type TTracedRequest = z.infer<typeof ZTracedRequest>;

export const ZMonitorTrace = z.object({
  nodeId: z.string().describe('The node whose requests these are'),
  requests: z.array(ZTracedRequest).describe('Newest first'),
});
export type TMonitorTrace = z.infer<typeof ZMonitorTrace>;

// ------------------------------------------------------------------ online users

export const ZOnlineUserQuery = ZPageQuery.extend({
  username: z.string().trim().max(100).optional().describe('Part of the username'),
}).strict();
export type TOnlineUserQuery = z.infer<typeof ZOnlineUserQuery>;

export const ZOnlineUser = z.object({
  id: ZId.describe('Session id'),
  userId: ZId,
  username: z.string(),
  realname: z.string(),
  companyId: ZId,
  companyName: z.string(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  loginTime: ZTimestamp,
  lastSeen: ZTimestamp.nullable(),
  expireTime: ZTimestamp,
  current: z.boolean().describe("The caller's own session"),
});
export type TOnlineUser = z.infer<typeof ZOnlineUser>;

export const ZOnlineUserPage = pageOf(ZOnlineUser);
export type TOnlineUserPage = z.infer<typeof ZOnlineUserPage>;

export const ZForceLogout = z.object({ id: ZId.describe('Session id') }).strict();
export type TForceLogout = z.infer<typeof ZForceLogout>;
