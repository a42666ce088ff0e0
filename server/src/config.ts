import { isIP } from 'node:net';
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

const BYTE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};
const BYTES_RULE = 'must be a size such as 2GiB, 500MB or a number of bytes (0: unlimited)';

/** `2GiB`, `1.5 GB`, `1048576`: a whole number of bytes. */
const byteSize = z.string().transform((raw, ctx) => {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(raw.trim());
  const unit = match ? BYTE_UNITS[match[2]!.toLowerCase()] : undefined;
  if (!match || unit === undefined) {
    ctx.addIssue({ code: 'custom', message: BYTES_RULE });
    return z.NEVER;
  }
  return Math.floor(Number(match[1]) * unit);
});

const PROXIES_RULE =
  'must be a comma-separated list of IP addresses or CIDR ranges (10.0.0.5, 10.0.0.0/8, fd00::/8)';

/** `10.0.0.5, 10.0.0.0/8, fd00::/8`: the addresses whose X-Forwarded-For the server believes. */
const proxyList = z.string().transform((raw, ctx) => {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const valid = entries.every((entry) => {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    if (family === 0 || extra !== undefined) return false;
    if (prefix === undefined) return true;
    const bits = Number(prefix);
    return /^\d+$/.test(prefix) && bits <= (family === 4 ? 32 : 128);
  });
  if (entries.length === 0 || !valid) {
    ctx.addIssue({ code: 'custom', message: PROXIES_RULE });
    return z.NEVER;
  }
  return entries;
});

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
  API_KEY_RATE_LIMIT: optional(
    z.coerce
      .number({ error: 'must be a whole number of calls per minute (1-1000000)' })
      .int('must be a whole number of calls per minute (1-1000000)')
      .min(1, 'must be a whole number of calls per minute (1-1000000)')
      .max(1_000_000, 'must be a whole number of calls per minute (1-1000000)'),
  ).default(600),
  // Single sign-on (CAS 3.0, OpenID Connect): each protocol is on when its server URL is set.
  SSO_CONSOLE_URL: optional(
    z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL (the console address)' }),
  ),
  CAS_SERVER_URL: optional(
    z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL (the CAS base, …/cas)' }),
  ),
  CAS_COMPANY: optional(z.string().max(64)),
  CAS_USERNAME_ATTRIBUTE: optional(z.string().max(128)),
  CAS_LABEL: optional(z.string().max(64)),
  OIDC_ISSUER: optional(z.url({ protocol: /^https?$/, error: 'must be an http(s):// URL' })),
  OIDC_CLIENT_ID: optional(z.string().max(256)),
  OIDC_CLIENT_SECRET: optional(z.string().max(1024)),
  OIDC_SCOPES: optional(z.string().max(512)).default('openid profile email'),
  OIDC_USERNAME_CLAIM: optional(z.string().max(128)).default('preferred_username'),
  OIDC_COMPANY: optional(z.string().max(64)),
  OIDC_LABEL: optional(z.string().max(64)),
  HSTS_MAX_AGE: optional(
    z.coerce
      .number({ error: 'must be a number of seconds' })
      .int('must be a number of seconds')
      .min(0, 'must be a number of seconds'),
  ).default(0),
  COMPANY_STORAGE_QUOTA: optional(byteSize).default(2 * 2 ** 30),
  TRUSTED_PROXIES: optional(proxyList).default([]),
  // GET /metrics (Prometheus) answers only to `Authorization: Bearer <METRICS_TOKEN>`; unset: 404.
  METRICS_TOKEN: optional(
    z
      .string()
      .min(16, 'must be at least 16 characters')
      .max(256, 'must be at most 256 characters')
      .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces'),
  ),
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
  /** Calls one API key may make per minute on each node. */
  apiKeyRateLimit: number;
  /** Single sign-on protocols this deployment offers; a protocol left out is off. */
  sso: SsoConfig;
  /** Strict-Transport-Security max-age in seconds; 0 sends no HSTS (only TLS deployments want it). */
  hstsMaxAge: number;
  /** Bytes of files (firmware) one company may store unless its own quota says otherwise; 0: unlimited. */
  companyStorageQuota: number;
  /**
   * Proxies (load balancers) in front of the server: a request from one of them is counted under
   * the client address it forwards in X-Forwarded-For. Empty: the socket address, always.
   */
  trustedProxies: string[];
  /** The bearer token of GET /metrics; undefined: the endpoint answers 404. */
  metricsToken: string | undefined;
  /** Built console; served when the folder exists. */
  webDist: string;
}

export interface CasConfig {
  /** Base URL of the CAS server: `/login` and `/p3/serviceValidate` are below it. */
  serverUrl: string;
  /** Code of the company whose users sign in through it. */
  company: string;
  /** The attribute that holds the BLRMS username; unset: the CAS principal (`cas:user`). */
  usernameAttribute: string | null;
  label: string;
}

export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** Unset: a public client (PKCE only). */
  clientSecret: string | null;
  scopes: string;
  usernameClaim: string;
  company: string;
  label: string;
}

export interface SsoConfig {
  /** The console's public address: CAS services and OIDC redirects must be its callback pages. */
  consoleUrl: string | null;
  cas: CasConfig | null;
  oidc: OidcConfig | null;
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
  const missing = [
    ...(e.CAS_SERVER_URL && !e.CAS_COMPANY
      ? ['CAS_COMPANY: required when CAS_SERVER_URL is set']
      : []),
    ...(e.OIDC_ISSUER && !e.OIDC_CLIENT_ID
      ? ['OIDC_CLIENT_ID: required when OIDC_ISSUER is set']
      : []),
    ...(e.OIDC_ISSUER && !e.OIDC_COMPANY ? ['OIDC_COMPANY: required when OIDC_ISSUER is set'] : []),
  ];
  if (missing.length > 0) {
    throw new ConfigError(`Invalid configuration:\n  ${missing.join('\n  ')}`);
  }
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
    apiKeyRateLimit: e.API_KEY_RATE_LIMIT,
    sso: {
      consoleUrl: e.SSO_CONSOLE_URL ?? null,
      cas:
        e.CAS_SERVER_URL && e.CAS_COMPANY
          ? {
              serverUrl: e.CAS_SERVER_URL.replace(/\/+$/, ''),
              company: e.CAS_COMPANY,
              usernameAttribute: e.CAS_USERNAME_ATTRIBUTE ?? null,
              label: e.CAS_LABEL ?? 'CAS',
            }
          : null,
      oidc:
        e.OIDC_ISSUER && e.OIDC_CLIENT_ID && e.OIDC_COMPANY
          ? {
              issuer: e.OIDC_ISSUER,
              clientId: e.OIDC_CLIENT_ID,
              clientSecret: e.OIDC_CLIENT_SECRET ?? null,
              scopes: e.OIDC_SCOPES,
              usernameClaim: e.OIDC_USERNAME_CLAIM,
              company: e.OIDC_COMPANY,
              label: e.OIDC_LABEL ?? 'OpenID Connect',
            }
          : null,
    },
    hstsMaxAge: e.HSTS_MAX_AGE,
    companyStorageQuota: e.COMPANY_STORAGE_QUOTA,
    trustedProxies: e.TRUSTED_PROXIES,
    metricsToken: e.METRICS_TOKEN,
    webDist: DEFAULT_WEB_DIST,
  };
}
