import { z } from 'zod';
import { ZId, ZTimestamp, pageOf, ZPageQuery } from './common.js';
import { DEVICE_SERIES, type TDeviceSeries } from './device.js';

/*
 * Remote configuration (docs/device-protocol.md, "Remote configuration"). Each series has a
 * configuration schema; the server validates with it (a 400 names the field), the console renders
 * its form from the JSON Schema made of it (`configJsonSchema`), and the simulator rejects what a
 * real device would. Field labels are translated in the console by path
 * (`deviceConfig.fields.<path>`), with the schema's `title` as the fallback. Secret fields carry
 * `writeOnly: true`: only the device ever receives their values ({@link maskSecrets}).
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
/** A password: masked in every answer of the platform, left blank in a form to keep it. */
const secret = (title: string, min: number, max: number) =>
  text(min, max).meta({ title, format: 'password', writeOnly: true });

export const ZR40Config = z
  .object({
    wan: z
      .object({
        mode: z.enum(['lte', 'dhcp', 'static']).meta({ title: 'WAN mode' }),
        apn: text(0, 63).meta({ title: 'APN' }),
        apnUser: text(0, 63).meta({ title: 'APN user' }),
        apnPassword: secret('APN password', 0, 63),
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
        password: secret('Password', 8, 63),
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
        password: secret('Password', 0, 128),
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

/**
 * Factory settings of each series: what a simulated device runs before anyone configures it. The
 * platform never sends them: until a device reports its configuration, the platform does not
 * know it and sends only the fields someone set (a `patch`, see `ZConfigDownPayload`).
 */
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

function firstProblem(schema: z.ZodType, value: unknown, at: string[]): string | null {
  const parsed = schema.safeParse(value);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  const path = [...at, ...(issue?.path ?? []).map(String)].join('.') || '(config)';
  return `${path}: ${issue?.message ?? 'invalid'}`;
}

/** The first problem of a whole configuration, as `path: message`; null when it is valid. */
export function configProblem(series: TDeviceSeries, config: unknown): string | null {
  return firstProblem(CONFIG_SCHEMAS[series], config, []);
}

/**
 * The first problem of part of a configuration (what a device that never reported is sent), as
 * `path: message`: sections may leave fields out, every field present must be valid, arrays are
 * checked whole (a merge patch replaces them whole) and unknown keys are refused.
 */
export function configPatchProblem(series: TDeviceSeries, patch: unknown): string | null {
  const walk = (schema: z.ZodType, value: unknown, at: string[]): string | null => {
    if (!(schema instanceof z.ZodObject) || !isConfigObject(value)) {
      return firstProblem(schema, value, at);
    }
    const shape = schema.shape as Record<string, z.ZodType>;
    for (const [key, field] of Object.entries(value)) {
      const fieldSchema = shape[key];
      const problem = fieldSchema
        ? walk(fieldSchema, field, [...at, key])
        : `${[...at, key].join('.')}: unknown field`;
      if (problem) return problem;
    }
    return null;
  };
  return walk(CONFIG_SCHEMAS[series], patch, []);
}

/** What a secret field shows instead of its value; sent back, it keeps the value. */
export const SECRET_MASK = '******';

function secretPathsOf(schema: z.ZodType, at: string): string[] {
  if (schema instanceof z.ZodObject) {
    return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([key, field]) =>
      secretPathsOf(field, at ? `${at}.${key}` : key),
    );
  }
  return schema.meta()?.writeOnly === true ? [at] : [];
}

/** Dotted paths of each series' secret fields (`writeOnly` in its schema). */
export const SECRET_PATHS: Record<TDeviceSeries, readonly string[]> = {
  R40: secretPathsOf(ZR40Config, ''),
  BL10X: secretPathsOf(ZBL10XConfig, ''),
  S27X: secretPathsOf(ZS27XConfig, ''),
};

/** The value at a dotted path of a configuration, if every section on the way is there. */
export function valueAt(config: unknown, path: string): unknown {
  return path
    .split('.')
    .reduce<unknown>((value, key) => (isConfigObject(value) ? value[key] : undefined), config);
}

/** A copy of `config` with the value at `path` replaced (`undefined`: removed); sections kept. */
function withValueAt(
  config: TDeviceConfigObject,
  path: string,
  value: unknown,
): TDeviceConfigObject {
  const [key = '', ...rest] = path.split('.');
  const out = { ...config };
  if (rest.length === 0) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  } else if (isConfigObject(out[key])) {
    out[key] = withValueAt(out[key], rest.join('.'), value);
  }
  return out;
}

/**
 * A configuration (whole or part) as the platform shows it to anyone: every secret that is set
 * replaced by {@link SECRET_MASK}. An empty secret stays empty: that none is set is no secret.
 */
export function maskSecrets<T extends TDeviceConfigObject | null>(
  series: TDeviceSeries,
  config: T,
): T {
  if (config === null) return config;
  let out: TDeviceConfigObject = config;
  for (const path of SECRET_PATHS[series]) {
    const value = valueAt(out, path);
    if (typeof value === 'string' && value !== '') out = withValueAt(out, path, SECRET_MASK);
  }
  return out as T;
}

/**
 * An edit as it is meant: a secret sent back as {@link SECRET_MASK} is left out, so that merging
 * the edit into what the platform knows keeps the value.
 */
export function withoutMaskedSecrets(
  series: TDeviceSeries,
  edit: TDeviceConfigObject,
): TDeviceConfigObject {
  let out = edit;
  for (const path of SECRET_PATHS[series]) {
    if (valueAt(out, path) === SECRET_MASK) out = withValueAt(out, path, undefined);
  }
  return out;
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

/**
 * pending: sent (or waiting for the device) and not answered yet; failed: the device refused it,
 * or did not answer in time ({@link ZConfigFailure}).
 */
export const CONFIG_STATES = ['none', 'pending', 'applied', 'failed'] as const;
export const ZConfigState = z.enum(CONFIG_STATES);
export type TConfigState = z.infer<typeof ZConfigState>;

/** How long an online device has to answer a push before it counts as failed (`no-answer`). */
export const CONFIG_ANSWER_TIMEOUT_SEC = 60;

/** Why a desired version failed, as a code and its parameters (the console words it). */
export const ZConfigFailure = z.discriminatedUnion('code', [
  z.object({
    code: z.literal('device-refused'),
    reason: z.string().describe('What the device said, as it said it'),
  }),
  z.object({
    code: z.literal('no-answer'),
    afterSec: z.number().int().describe('How long the online device was waited for'),
  }),
]);
export type TConfigFailure = z.infer<typeof ZConfigFailure>;

/** A configuration as the API shows it: secrets masked; part of one while the device is unknown. */
const ZShownConfig = z.record(z.string(), z.unknown());

export const ZDeviceConfigState = z.object({
  deviceId: ZId,
  series: z.enum(DEVICE_SERIES),
  desired: z
    .object({
      version: z.number().int(),
      config: ZShownConfig.describe(
        'The fields set on the platform: the whole configuration once the device reported one',
      ),
      changedBy: z.string().nullable(),
      changedAt: ZTimestamp,
    })
    .nullable()
    .describe('What the platform wants the device to run; null until someone sets it'),
  reported: z
    .object({
      version: z.number().int(),
      config: ZShownConfig.nullable(),
      reportedAt: ZTimestamp,
    })
    .nullable()
    .describe('What the device last said it runs; null until it reports'),
  state: ZConfigState,
  failure: ZConfigFailure.nullable().describe('Why the desired version failed'),
  sentAt: ZTimestamp.nullable().describe('When the desired version was last sent'),
});
export type TDeviceConfigState = z.infer<typeof ZDeviceConfigState>;

export const ZDeviceConfigQuery = z.object({ deviceId: ZId, _t: z.string().optional() }).strict();

/**
 * Sets the desired configuration of one device: merged (JSON Merge Patch) into what the platform
 * knows of it, so the whole configuration or just the fields to change; fields nobody set stay
 * unknown until the device reports them, and are not sent. A secret sent as {@link SECRET_MASK}
 * keeps its value. `baseVersion` is the desired version the editor started from (0 when there was
 * none): a change made meanwhile by someone else is a 409, not silently overwritten.
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
  config: ZShownConfig,
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
