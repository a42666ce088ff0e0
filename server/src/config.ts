import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const port = z.coerce
  .number({ error: 'must be a port number (0-65535)' })
  .int('must be a port number (0-65535)')
  .min(0, 'must be a port number (0-65535)')
  .max(65535, 'must be a port number (0-65535)');

/** An unset variable and an empty one mean the same thing: `FOO= npm start` must not break parsing. */
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

const ZEnv = z.object({
  PORT: optional(port).default(8080),
  HOST: optional(z.string()).default('0.0.0.0'),
  DATA_DIR: optional(z.string()).default('./data'),
  DATABASE_URL: optional(
    z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// URL' }),
  ),
  REDIS_URL: optional(z.url({ protocol: /^rediss?$/, error: 'must be a redis:// URL' })),
  MQTT_PORT: optional(port).default(1883),
  MQTT_URL: optional(z.url({ protocol: /^(mqtts?|wss?|tcp)$/, error: 'must be an mqtt:// URL' })),
  PUBLIC_URL: optional(z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })),
  ADMIN_PASSWORD: optional(z.string().min(8, 'must be at least 8 characters').max(128)),
  CAPTCHA: optional(z.enum(['on', 'off'])).default('on'),
  SMTP_URL: optional(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// URL' })),
  LOG_LEVEL: optional(z.enum(LOG_LEVELS)).default('info'),
  HSTS_MAX_AGE: optional(
    z.coerce
      .number({ error: 'must be a number of seconds' })
      .int('must be a number of seconds')
      .min(0, 'must be a number of seconds'),
  ).default(0),
});

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  mqttPort: number;
  mqttUrl: string | undefined;
  publicUrl: string | undefined;
  adminPassword: string | undefined;
  captcha: boolean;
  smtpUrl: string | undefined;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Strict-Transport-Security max-age in seconds; 0 sends no HSTS (only TLS deployments want it). */
  hstsMaxAge: number;
  /** Built console; served when the folder exists. */
  webDist: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Resolves to the repo's web/dist both from server/src (tsx, vitest) and from server/dist. */
const DEFAULT_WEB_DIST = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../web/dist',
);

/** Pure: the same env always gives the same config, so tests can pass overrides. */
export function loadConfig(env: Record<string, string | undefined>): Config {
  const parsed = ZEnv.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    mqttPort: e.MQTT_PORT,
    mqttUrl: e.MQTT_URL,
    publicUrl: e.PUBLIC_URL,
    adminPassword: e.ADMIN_PASSWORD,
    captcha: e.CAPTCHA === 'on',
    smtpUrl: e.SMTP_URL,
    logLevel: e.LOG_LEVEL,
    hstsMaxAge: e.HSTS_MAX_AGE,
    webDist: DEFAULT_WEB_DIST,
  };
}
