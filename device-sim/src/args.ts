import { isIPv4 } from 'node:net';
import { parseArgs } from 'node:util';
import { DEVICE_SERIES, SN_PATTERN, type TDeviceSeries } from '@blrms/contracts';
import type { FleetOptions } from './fleet.js';

export const USAGE = `Usage: npm run sim -- --token <key> [options]

Simulates devices speaking BLRMS device protocol v1 (docs/device-protocol.md) over MQTT.

  --token <key>          token key the devices log in with (Token Key page)       required
  --url <url>            broker, mqtt://host:port        default: $MQTT_URL or mqtt://127.0.0.1:1883
  --count <n>            number of devices                                          default: 10
  --series <list>        R40, BL10X, S27X or a comma list, assigned in turn
                                                                   default: R40,BL10X,S27X
  --prefix <text>        SN prefix: SNs are SIM000001, SIM000002, ...               default: SIM
  --interval <duration>  telemetry period, e.g. 10s, 500ms, 1m                      default: 10s
  --keepalive <duration> MQTT keepalive                                             default: 60s
  --churn <p>            chance per telemetry period that a device drops its
                         connection (no DISCONNECT); it returns 1-30 s later        default: 0
  --bad-payloads <p>     chance per telemetry period of sending malformed JSON, an
                         oversized (> 64 KiB) or a schema-invalid message instead   default: 0
  --source-ips <list>    local addresses to connect from, in turn: a comma list of
                         IPv4 addresses or ranges, e.g. 127.0.0.2-127.0.0.40       default: any
  --rate <n>             new connections per second                                default: 500
  --help                 this text

Probabilities are between 0 and 1. Ctrl-C disconnects every device and exits.`;

export class UsageError extends Error {
  override name = 'UsageError';
}

export type SimOptions = Omit<
  FleetOptions,
  'random' | 'topicRoot' | 'maxPendingConnects' | 'dropReconnectMs'
>;

export type ParsedArgs = { help: true } | { help: false; options: SimOptions };

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

export function parseDuration(flag: string, text: string, minMs: number): number {
  const match = DURATION.exec(text.trim());
  if (!match) throw new UsageError(`${flag}: "${text}" is not a duration (e.g. 10s, 500ms, 2m)`);
  const ms = Number(match[1]) * UNIT_MS[(match[2] ?? 's') as keyof typeof UNIT_MS];
  if (ms < minMs) throw new UsageError(`${flag}: must be at least ${minMs} ms`);
  return ms;
}

function parseCount(flag: string, text: string, max: number): number {
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag}: "${text}" is not a whole number`);
  const n = Number(text);
  if (n < 1 || n > max) throw new UsageError(`${flag}: must be between 1 and ${max}`);
  return n;
}

function parseProbability(flag: string, text: string): number {
  const p = Number(text);
  if (text.trim() === '' || !Number.isFinite(p) || p < 0 || p > 1)
    throw new UsageError(`${flag}: "${text}" is not a probability between 0 and 1`);
  return p;
}

function parseSeries(text: string): TDeviceSeries[] {
  const names = text.split(',').map((s) => s.trim());
  const unknown = names.filter((s) => !(DEVICE_SERIES as readonly string[]).includes(s));
  if (unknown.length || names.length === 0)
    throw new UsageError(
      `--series: unknown series ${unknown.map((s) => `"${s}"`).join(', ')} (use ${DEVICE_SERIES.join(', ')})`,
    );
  return names as TDeviceSeries[];
}

const ipToNumber = (ip: string) => ip.split('.').reduce((n, octet) => n * 256 + Number(octet), 0);
const numberToIp = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
const SOURCE_IPS_MAX = 65_536;

/** `127.0.0.2-127.0.0.40,10.0.0.5` → every address, in order. */
export function parseSourceIps(text: string): string[] {
  const ips: string[] = [];
  for (const part of text.split(',').map((s) => s.trim())) {
    const [from = '', to = from, extra] = part.split('-').map((s) => s.trim());
    if (extra !== undefined || !isIPv4(from) || !isIPv4(to))
      throw new UsageError(
        `--source-ips: "${part}" is not an IPv4 address or range a.b.c.d-a.b.c.e`,
      );
    const start = ipToNumber(from);
    const end = ipToNumber(to);
    if (end < start) throw new UsageError(`--source-ips: range "${part}" runs backwards`);
    if (ips.length + end - start + 1 > SOURCE_IPS_MAX)
      throw new UsageError(`--source-ips: at most ${SOURCE_IPS_MAX} addresses`);
    for (let n = start; n <= end; n++) ips.push(numberToIp(n));
  }
  return ips;
}

function parseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--url: "${text}" is not a URL (e.g. mqtt://127.0.0.1:1883)`);
  }
  if (url.protocol !== 'mqtt:' && url.protocol !== 'tcp:')
    throw new UsageError(`--url: only mqtt:// brokers are supported, not ${url.protocol}//`);
  return text;
}

/** Parses the command line; throws UsageError with a message naming the flag at fault. */
export function parseSimArgs(
  argv: string[],
  env: Record<string, string | undefined> = {},
): ParsedArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        token: { type: 'string' },
        url: { type: 'string' },
        count: { type: 'string' },
        series: { type: 'string' },
        prefix: { type: 'string' },
        interval: { type: 'string' },
        keepalive: { type: 'string' },
        churn: { type: 'string' },
        'bad-payloads': { type: 'string' },
        'source-ips': { type: 'string' },
        rate: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true };
  if (!values.token)
    throw new UsageError('--token: required (a token key from the Token Key page)');
  const prefix = values.prefix ?? 'SIM';
  const count = parseCount('--count', values.count ?? '10', 1_000_000);
  if (!SN_PATTERN.test(`${prefix}000000`) || prefix.length + String(count).length > 64)
    throw new UsageError(
      `--prefix: "${prefix}" must be letters, digits, _ or - (SNs are at most 64 characters)`,
    );
  return {
    help: false,
    options: {
      url: parseUrl(values.url ?? env.MQTT_URL ?? 'mqtt://127.0.0.1:1883'),
      token: values.token,
      count,
      series: parseSeries(values.series ?? DEVICE_SERIES.join(',')),
      prefix,
      intervalMs: parseDuration('--interval', values.interval ?? '10s', 10),
      keepaliveSec: Math.round(
        parseDuration('--keepalive', values.keepalive ?? '60s', 1000) / 1000,
      ),
      churn: parseProbability('--churn', values.churn ?? '0'),
      badPayloadRate: parseProbability('--bad-payloads', values['bad-payloads'] ?? '0'),
      sourceIps: values['source-ips'] ? parseSourceIps(values['source-ips']) : [],
      connectRate: parseCount('--rate', values.rate ?? '500', 1_000_000),
    },
  };
}
