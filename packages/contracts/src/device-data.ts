import { z } from 'zod';
import { ZId, ZPageQuery, ZTimestamp } from './common.js';
import { ZEventLevel, ZTelemetryValues } from './device-protocol.js';

/**
 * What devices report, as stored: telemetry (`up/telemetry`) and events (`up/event`, plus events
 * the platform records about a device: malformed payloads, refused connections, takeovers). Rows
 * older than the retention period are deleted.
 */

export const ZDeviceTelemetryPoint = z.object({
  ts: ZTimestamp.describe('Device time of the sample (server time when the device sent none)'),
  values: ZTelemetryValues,
});
export type TDeviceTelemetryPoint = z.infer<typeof ZDeviceTelemetryPoint>;

export const ZDeviceIdQuery = z.object({ deviceId: ZId, _t: z.string().optional() }).strict();

/** Latest value of every key the device has reported, each with the time it was reported. */
export const ZDeviceTelemetryLatest = z.object({
  deviceId: ZId,
  values: z.array(z.object({ key: z.string(), value: z.number(), ts: ZTimestamp })),
});
export type TDeviceTelemetryLatest = z.infer<typeof ZDeviceTelemetryLatest>;

export const TELEMETRY_HISTORY_MAX_POINTS = 2000;
export const ZDeviceTelemetryHistoryQuery = z
  .object({
    deviceId: ZId,
    begin: z.iso.datetime({ offset: true }).optional().describe('Default: 24 hours before end'),
    end: z.iso.datetime({ offset: true }).optional().describe('Default: now'),
    _t: z.string().optional(),
  })
  .strict();
export type TDeviceTelemetryHistoryQuery = z.infer<typeof ZDeviceTelemetryHistoryQuery>;

/** The latest samples in the range (at most TELEMETRY_HISTORY_MAX_POINTS), oldest first. */
export const ZDeviceTelemetryHistory = z.object({
  deviceId: ZId,
  points: z.array(ZDeviceTelemetryPoint),
  truncated: z.boolean().describe('The range held more samples than were returned'),
});
export type TDeviceTelemetryHistory = z.infer<typeof ZDeviceTelemetryHistory>;

export const DEVICE_EVENT_SOURCES = ['device', 'platform'] as const;

export const ZDeviceEvent = z.object({
  id: ZId,
  deviceId: ZId,
  sn: z.string(),
  ts: ZTimestamp.describe('Device time of the event (server time when the device sent none)'),
  level: ZEventLevel,
  code: z.string(),
  message: z.string(),
  source: z.enum(DEVICE_EVENT_SOURCES).describe('Sent by the device, or recorded by the platform'),
  receivedAt: ZTimestamp,
});
export type TDeviceEvent = z.infer<typeof ZDeviceEvent>;

export const ZDeviceEventQuery = ZPageQuery.extend({
  deviceId: ZId,
  level: ZEventLevel.optional(),
  begin: z.iso.datetime({ offset: true }).optional(),
  end: z.iso.datetime({ offset: true }).optional(),
}).strict();
export type TDeviceEventQuery = z.infer<typeof ZDeviceEventQuery>;

/** How long telemetry and events are kept (platform-wide; default 30 days). */
export const DATA_RETENTION_DEFAULT_DAYS = 30;
export const ZDataRetention = z
  .object({ days: z.number().int().min(1, 'must be at least 1').max(3650, 'must be at most 3650') })
  .strict();
export type TDataRetention = z.infer<typeof ZDataRetention>;

// ---------------------------------------------------------------- connections

/** One connection of a device, from CONNECT to its end; open while `disconnectedAt` is null. */
export const ZDeviceConnection = z.object({
  id: ZId,
  connectedAt: ZTimestamp,
  disconnectedAt: ZTimestamp.nullable(),
  reason: z.string().nullable().describe('Why it ended (a disconnect reason); null while open'),
  durationMs: z.number().int().describe('Until now while open'),
  ip: z.string().nullable(),
  nodeId: z.string().nullable().describe('Server node that held the connection'),
});
export type TDeviceConnection = z.infer<typeof ZDeviceConnection>;

export const ZDeviceConnectionQuery = ZPageQuery.extend({ deviceId: ZId }).strict();
export type TDeviceConnectionQuery = z.infer<typeof ZDeviceConnectionQuery>;

/** Share of a window the device was connected, counted from its creation when that is later. */
export const ZAvailabilityWindow = z.object({
  from: ZTimestamp,
  to: ZTimestamp,
  onlineMs: z.number().int(),
  percent: z.number().describe('0 to 100, one decimal'),
  connections: z.number().int().describe('Connections within the window'),
});
export type TAvailabilityWindow = z.infer<typeof ZAvailabilityWindow>;

export const ZDeviceAvailability = z.object({
  deviceId: ZId,
  day: ZAvailabilityWindow.describe('The last 24 hours'),
  week: ZAvailabilityWindow.describe('The last 7 days'),
});
export type TDeviceAvailability = z.infer<typeof ZDeviceAvailability>;
