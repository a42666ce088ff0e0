import { z } from 'zod';
import { ZId, ZTimestamp, pageOf, ZPageQuery } from './common.js';
import { DEVICE_SERIES, type TDeviceSeries } from './device.js';

/*
 * Remote configuration (docs/device-protocol.md, "Remote configuration"). Each series has a
 * configuration schema; the server validates with it (a 400 names the field), the console renders
 * its form from the JSON Schema made of it (`configJsonSchema`), and the simulator rejects what a
 * real device would. Field labels are translated in the console by path
 * (`deviceConfig.fields.<path>`), with the schema's `title` as the fallback.
 */

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const ZIpv4 = z.string().regex(IPV4, 'must be an IPv4 address');
const ZHeartbeat = z.number().int().min(10).max(3600).meta({ title: 'Heartbeat (s)' });
/** Printable text without control characters, as device firmware stores it. */
const text = (min: number, max: number) =>
  z
    .string()
    .min(min)
    .max(max)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

export const ZR40Config = z
  .object({
    wan: z
      .object({
        mode: z.enum(['lte', 'dhcp', 'static']).meta({ title: 'WAN mode' }),
        apn: text(0, 63).meta({ title: 'APN' }),
        apnUser: text(0, 63).meta({ title: 'APN user' }),
        apnPassword: text(0, 63).meta({ title: 'APN password', format: 'password' }),
      })
      .strict()
      .meta({ title: 'WAN' }),
    lan: z
      .object({
        ip: ZIpv4.meta({ title: 'LAN IP' }),
        netmask: ZIpv4.meta({ title: 'Netmask' }),
        dhcp: z.boolean().meta({ title: 'DHCP server' }),
        dhcpStart: ZIpv4.meta({ title: 'DHCP start' }),
        dhcpEnd: ZIpv4.meta({ title: 'DHCP end' }),
      })
      .strict()
      .meta({ title: 'LAN' }),
    wifi: z
      .object({
        enabled: z.boolean().meta({ title: 'Wi-Fi' }),
        ssid: text(1, 32).meta({ title: 'SSID' }),
        password: text(8, 63).meta({ title: 'Password', format: 'password' }),
        channel: z.number().int().min(0).max(13).meta({ title: 'Channel (0 = auto)' }),
      })
      .strict()
      .meta({ title: 'Wi-Fi' }),
    heartbeatSec: ZHeartbeat,
  })
  .strict();

export const ZBL10XConfig = z
  .object({
    serial: z
      .object({
        baudRate: z
          .union([1200, 2400, 4800, 9600, 19200, 38400, 57600, 115200].map((n) => z.literal(n)))
          .meta({ title: 'Baud rate' }),
        dataBits: z.union([z.literal(7), z.literal(8)]).meta({ title: 'Data bits' }),
        parity: z.enum(['none', 'even', 'odd']).meta({ title: 'Parity' }),
        stopBits: z.union([z.literal(1), z.literal(2)]).meta({ title: 'Stop bits' }),
      })
      .strict()
      .meta({ title: 'Serial port' }),
    modbus: z
      .object({
        pollIntervalMs: z.number().int().min(100).max(60000).meta({ title: 'Poll interval (ms)' }),
        timeoutMs: z.number().int().min(100).max(10000).meta({ title: 'Timeout (ms)' }),
        slaves: z
          .array(
            z
              .object({
                address: z.number().int().min(1).max(247).meta({ title: 'Slave address' }),
                name: text(1, 32).meta({ title: 'Name' }),
                function: z
                  .enum(['coils', 'discrete', 'holding', 'input'])
                  .meta({ title: 'Register type' }),
                start: z.number().int().min(0).max(65535).meta({ title: 'Start register' }),
                count: z.number().int().min(1).max(125).meta({ title: 'Count' }),
              })
              .strict(),
          )
          .max(32)
          .meta({ title: 'Slaves' }),
      })
      .strict()
      .meta({ title: 'Modbus' }),
    mqtt: z
      .object({
        host: text(1, 253).meta({ title: 'Host' }),
        port: z.number().int().min(1).max(65535).meta({ title: 'Port' }),
        tls: z.boolean().meta({ title: 'TLS' }),
        clientId: text(1, 64).meta({ title: 'Client id' }),
        username: text(0, 64).meta({ title: 'Username' }),
        password: text(0, 128).meta({ title: 'Password', format: 'password' }),
        topic: text(1, 128).meta({ title: 'Publish topic' }),
      })
      .strict()
      .meta({ title: 'Upstream MQTT' }),
    heartbeatSec: ZHeartbeat,
  })
  .strict();

export const ZS27XConfig = z
  .object({
    di: z
      .array(
        z
          .object({
            channel: z.number().int().min(1).max(8).meta({ title: 'Channel' }),
            alarm: z.enum(['off', 'open', 'close', 'change']).meta({ title: 'Alarm on' }),
          })
          .strict(),
      )
      .max(8)
      .meta({ title: 'Digital inputs' }),
    ai: z
      .array(
        z
          .object({
            channel: z.number().int().min(1).max(4).meta({ title: 'Channel' }),
            low: z.number().min(-100000).max(100000).meta({ title: 'Low threshold' }),
            high: z.number().min(-100000).max(100000).meta({ title: 'High threshold' }),
          })
          .strict()
          .refine((ai) => ai.low < ai.high, {
            message: 'low threshold must be below high threshold',
            path: ['low'],
          }),
      )
      .max(4)
      .meta({ title: 'Analog inputs' }),
    smsNumbers: z
      .array(z.string().regex(/^\+?[0-9]{5,20}$/, 'must be a phone number'))
      .max(5)
      .meta({ title: 'SMS alarm numbers' }),
    doDefaults: z
      .array(
        z
          .object({
            channel: z.number().int().min(1).max(4).meta({ title: 'Channel' }),
            state: z.enum(['on', 'off']).meta({ title: 'State at power-up' }),
          })
          .strict(),
      )
      .max(4)
      .meta({ title: 'Digital outputs' }),
    heartbeatSec: ZHeartbeat,
  })
  .strict();

export const CONFIG_SCHEMAS = {
  R40: ZR40Config,
  BL10X: ZBL10XConfig,
  S27X: ZS27XConfig,
} as const satisfies Record<TDeviceSeries, z.ZodType>;

export type TR40Config = z.infer<typeof ZR40Config>;
export type TBL10XConfig = z.infer<typeof ZBL10XConfig>;
export type TS27XConfig = z.infer<typeof ZS27XConfig>;
export type TDeviceConfigObject = Record<string, unknown>;

/** Factory settings: the base of a first change when the device has reported nothing yet. */
export const CONFIG_DEFAULTS: Record<TDeviceSeries, TDeviceConfigObject> = {
  R40: {
    wan: { mode: 'lte', apn: 'cmnet', apnUser: '', apnPassword: '' },
    lan: {
      ip: '192.168.1.1',
      netmask: '255.255.255.0',
      dhcp: true,
      dhcpStart: '192.168.1.100',
      dhcpEnd: '192.168.1.200',
    },
    wifi: { enabled: true, ssid: 'R40', password: '12345678', channel: 0 },
    heartbeatSec: 60,
  } satisfies TR40Config,
  BL10X: {
    serial: { baudRate: 9600, dataBits: 8, parity: 'none', stopBits: 1 },
    modbus: { pollIntervalMs: 1000, timeoutMs: 500, slaves: [] },
    mqtt: {
      host: 'mqtt.example.com',
      port: 1883,
      tls: false,
      clientId: 'bl10x',
      username: '',
      password: '',
      topic: 'bl10x/data',
    },
    heartbeatSec: 60,
  } satisfies TBL10XConfig,
  S27X: {
    di: [],
    ai: [],
    smsNumbers: [],
    doDefaults: [],
    heartbeatSec: 60,
  } satisfies TS27XConfig,
};

/** The JSON Schema (draft 2020-12) of a series' configuration, for forms and API users. */
export function configJsonSchema(series: TDeviceSeries): Record<string, unknown> {
  return z.toJSONSchema(CONFIG_SCHEMAS[series], { io: 'input' }) as Record<string, unknown>;
}

/** The first problem of a configuration, as `path: message`; null when it is valid. */
export function configProblem(series: TDeviceSeries, config: unknown): string | null {
  const parsed = CONFIG_SCHEMAS[series].safeParse(config);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  return issue ? `${issue.path.join('.') || '(config)'}: ${issue.message}` : 'invalid';
}

/** A JSON object (not an array, not null): what a configuration and each of its sections are. */
export function isConfigObject(value: unknown): value is TDeviceConfigObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * JSON Merge Patch (RFC 7386): objects merge key by key, `null` removes a key, anything else
 * (arrays included) replaces. How bulk configuration applies one partial change to many devices.
 */
export function mergePatch(base: unknown, patch: unknown): unknown {
  if (!isConfigObject(patch)) return patch;
  const out: Record<string, unknown> = isConfigObject(base) ? { ...base } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else out[key] = mergePatch(out[key], value);
  }
  return out;
}

/** Dotted paths whose values differ between two configurations (arrays compared whole). */
export function changedPaths(before: unknown, after: unknown, prefix = ''): string[] {
  if (isConfigObject(before) && isConfigObject(after)) {
    const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
    return [...keys].flatMap((key) =>
      changedPaths(before[key], after[key], prefix ? `${prefix}.${key}` : key),
    );
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [prefix || '(config)'];
}

// ---------------------------------------------------------------- API

/** pending: sent (or waiting for the device) and not reported yet; failed: the device refused. */
export const CONFIG_STATES = ['none', 'pending', 'applied', 'failed'] as const;
export const ZConfigState = z.enum(CONFIG_STATES);
export type TConfigState = z.infer<typeof ZConfigState>;

export const ZDeviceConfigState = z.object({
  deviceId: ZId,
  series: z.enum(DEVICE_SERIES),
  desired: z
    .object({
      version: z.number().int(),
      config: z.record(z.string(), z.unknown()),
      changedBy: z.string().nullable(),
      changedAt: ZTimestamp,
    })
    .nullable()
    .describe('What the platform wants the device to run; null until someone sets it'),
  reported: z
    .object({
      version: z.number().int(),
      config: z.record(z.string(), z.unknown()).nullable(),
      reportedAt: ZTimestamp,
    })
    .nullable()
    .describe('What the device last said it runs'),
  state: ZConfigState,
  error: z.string().nullable().describe('The device’s reason when it refused the desired version'),
  sentAt: ZTimestamp.nullable().describe('When the desired version was last sent'),
});
export type TDeviceConfigState = z.infer<typeof ZDeviceConfigState>;

export const ZDeviceConfigQuery = z.object({ deviceId: ZId, _t: z.string().optional() }).strict();

/**
 * Sets the whole desired configuration of one device. `baseVersion` is the desired version the
 * editor started from (0 when there was none): a change made meanwhile by someone else is a 409,
 * not silently overwritten.
 */
export const ZDeviceConfigSet = z
  .object({
    deviceId: ZId,
    baseVersion: z.number().int().nonnegative(),
    config: z.record(z.string(), z.unknown()),
  })
  .strict();
export type TDeviceConfigSet = z.infer<typeof ZDeviceConfigSet>;

export const ZConfigVersion = z.object({
  version: z.number().int(),
  config: z.record(z.string(), z.unknown()),
  changedPaths: z.array(z.string()).describe('Dotted paths changed from the previous version'),
  changedBy: z.string().nullable(),
  changedAt: ZTimestamp,
  campaignId: ZId.nullable().describe('The bulk configuration that made this version'),
});
export type TConfigVersion = z.infer<typeof ZConfigVersion>;

export const ZConfigHistoryQuery = ZPageQuery.extend({ deviceId: ZId }).strict();
export type TConfigHistoryQuery = z.infer<typeof ZConfigHistoryQuery>;
export const ZConfigHistoryPage = pageOf(ZConfigVersion);

export const ZConfigSchemas = z
  .record(z.string(), z.record(z.string(), z.unknown()))
  .describe('JSON Schema of each series’ configuration');
