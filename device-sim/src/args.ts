import { isIPv4 } from 'node:net';
import { parseArgs } from 'node:util';
import { DEVICE_SERIES, SN_PATTERN, TELEMETRY_KEY, type TDeviceSeries } from '@blrms/contracts';

/** The token part of a device address (`{code}:{sn}`). */
const TOKEN_CODE_PATTERN = /^[A-Z0-9]{4,16}$/;
import { FAULT_KINDS, faultyCount, type FaultAmounts, type TFaultKind } from './faults.js';
import type { FleetOptions } from './fleet.js';
import {
  PROFILE_CURVES_MAX,
  PROFILE_SHAPES,
  type ProfileCurve,
  type TelemetryProfile,
  type TProfileShape,
} from './telemetry-profile.js';

export const USAGE = `Usage: npm run sim -- --code <token code> --token <key> [options]

Simulates devices speaking BLRMS device protocol v1 (docs/device-protocol.md) over MQTT.

  --code <code>          the token's code (Token Key page); each device connects as
                         <code>:<SN> (its tag code)                                 required
  --token <key>          token key the devices log in with (Token Key page)       required
  --url <url>[,<url>...] broker, mqtt://host:port; several (a comma list, or --url
                         again): the devices are spread over them in turn, and a
                         device whose broker goes away reconnects to the next one
                                                default: $MQTT_URL or mqtt://127.0.0.1:1883
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
  --firmware <version>   firmware version the devices start with
                         default: R40 2.1.4, BL10X 1.3.0, S27X 3.0.2 (their models')
  --reboot-delay <duration>
                         after a reboot command or an upgrade a device comes back
                         this much later                                           default: 2s

Faults (each a number of devices, e.g. 1, or a share of the fleet, e.g. 0.05 or 5%;
distinct devices spread evenly over the fleet, listed at start):
  --fault-drop <n>       the firmware download is cut once at about half way; the
                         device resumes it with an HTTP Range request              default: 0
  --fault-corrupt <n>    one byte of the firmware arrives flipped: sha256 mismatch default: 0
  --fault-refuse <n>     upgrades are refused ("upgrade refused by device")        default: 0
  --fault-reject-config <n>
                         every configuration is refused                            default: 0

Telemetry profile (drives values across alarm thresholds):
  --telemetry-profile <spec>
                         values that follow a curve instead of the device model;
                         several separated by ; or , (or the flag again). The
                         key is added when the series does not send it:
                           <key>=const:<v>               always v
                           <key>=square:<a>,<b>:<period> a for half the period, then b
                           <key>=ramp:<a>,<b>:<period>   a to b linearly, then again
                           <key>=sine:<a>,<b>:<period>   a to b and back, smoothly
                         e.g. ain1=square:10,25:60s;signal=ramp:-80,-115:120s
                         values keep the decimals written (10,25: whole numbers)
  --profile-devices <n>  devices that follow it: a number or a share (5, 0.1, 10%),
                         spread evenly over the fleet, listed at start   default: all
  --profile-phase <p>    spread: follower j of n starts j/n into each period, so
                         the fleet does not cross a threshold all at once;
                         aligned: all start at the first value together
                                                                   default: spread

  --help                 this text

Probabilities are between 0 and 1. Ctrl-C disconnects every device and exits.`;

export class UsageError extends Error {
  override name = 'UsageError';
}

export type SimOptions = Omit<
  FleetOptions,
  | 'url'
  | 'random'
  | 'topicRoot'
  | 'maxPendingConnects'
  | 'dropReconnectMs'
  | 'devices'
  | 'faultsBySn'
  | 'downloadRetryMs'
  | 'maxDownloads'
> & { url: string[] };

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

const FAULT_FLAGS: Record<TFaultKind, string> = {
  dropMidDownload: '--fault-drop',
  corruptDownload: '--fault-corrupt',
  refuseUpgrade: '--fault-refuse',
  rejectConfig: '--fault-reject-config',
};

/** `3` (devices), `0.05` or `5%` (a share of the fleet). */
function parseFaultAmount(flag: string, text: string, count: number): number {
  const trimmed = text.trim();
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(trimmed);
  if (percent) {
    const share = Number(percent[1]) / 100;
    if (share > 1) throw new UsageError(`${flag}: "${text}" is more than 100%`);
    return share === 1 ? count : share;
  }
  if (/^\d+$/.test(trimmed)) {
    const n = Number(trimmed);
    if (n > count) throw new UsageError(`${flag}: ${n} is more than the ${count} devices`);
    return n;
  }
  const share = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(share) || share <= 0 || share >= 1)
    throw new UsageError(
      `${flag}: "${text}" is neither a number of devices nor a share (0.05 or 5%)`,
    );
  return share;
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

const PROFILE_NUMBER = /^-?\d+(?:\.\d+)?$/;
/** A new entry starts where `,` or `;` is followed by `key=`; commas inside an entry separate values. */
const PROFILE_SEPARATOR = /;|,(?=\s*[A-Za-z][A-Za-z0-9_]*\s*=)/;

function profileNumber(entry: string, text: string): number {
  if (!PROFILE_NUMBER.test(text))
    throw new UsageError(`--telemetry-profile: "${entry}": "${text}" is not a number`);
  return Number(text);
}

const decimalsOf = (text: string) => text.split('.')[1]?.length ?? 0;

/** One `key=shape:args` entry. */
function parseProfileEntry(entry: string): ProfileCurve {
  const fail = (why: string): never => {
    throw new UsageError(`--telemetry-profile: "${entry}": ${why}`);
  };
  const eq = entry.indexOf('=');
  if (eq < 0) fail('expected <key>=<shape>:..., e.g. ain1=square:10,25:60s');
  const key = entry.slice(0, eq).trim();
  if (!TELEMETRY_KEY.test(key))
    fail(`"${key}" is not a telemetry key (a letter, then up to 31 letters, digits or _)`);
  const [shapeText = '', valuesText, periodText, ...extra] = entry
    .slice(eq + 1)
    .split(':')
    .map((s) => s.trim());
  if (!(PROFILE_SHAPES as readonly string[]).includes(shapeText))
    fail(`unknown shape "${shapeText}" (use ${PROFILE_SHAPES.join(', ')})`);
  const shape = shapeText as TProfileShape;
  if (shape === 'const') {
    if (valuesText === undefined || periodText !== undefined)
      fail('expected const:<value>, e.g. ain1=const:25');
    const from = profileNumber(entry, valuesText ?? '');
    return { key, shape, from, to: from, periodMs: 0, decimals: decimalsOf(valuesText ?? '') };
  }
  if (valuesText === undefined || periodText === undefined || extra.length > 0)
    fail(`expected ${shape}:<a>,<b>:<period>, e.g. ${key}=${shape}:10,25:60s`);
  const pair = (valuesText ?? '').split(',').map((s) => s.trim());
  if (pair.length !== 2) fail(`"${valuesText}" is not two values <a>,<b>`);
  const [a = '', b = ''] = pair;
  return {
    key,
    shape,
    from: profileNumber(entry, a),
    to: profileNumber(entry, b),
    periodMs: parseDuration(`--telemetry-profile: "${entry}": period`, periodText ?? '', 10),
    decimals: Math.max(decimalsOf(a), decimalsOf(b)),
  };
}

/**
 * `ain1=square:10,25:60s;signal=ramp:-80,-115:120s` (each text a `;` or `,` list) → the curves,
 * in order; throws UsageError naming the entry and the part of it at fault.
 */
export function parseTelemetryProfile(texts: readonly string[]): ProfileCurve[] {
  const curves = texts
    .flatMap((text) => text.split(PROFILE_SEPARATOR))
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map(parseProfileEntry);
  if (curves.length === 0) throw new UsageError('--telemetry-profile: no <key>=<shape>:... given');
  if (curves.length > PROFILE_CURVES_MAX)
    throw new UsageError(`--telemetry-profile: at most ${PROFILE_CURVES_MAX} keys`);
  const seen = new Set<string>();
  for (const { key } of curves) {
    if (seen.has(key)) throw new UsageError(`--telemetry-profile: ${key} is given twice`);
    seen.add(key);
  }
  return curves;
}

/** Each `--url` may be a comma list; every broker named, in order. */
function parseUrls(texts: readonly string[]): string[] {
  const urls = texts.flatMap((text) => text.split(',')).map((s) => s.trim());
  for (const text of urls) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw new UsageError(`--url: "${text}" is not a URL (e.g. mqtt://127.0.0.1:1883)`);
    }
    if (url.protocol !== 'mqtt:' && url.protocol !== 'tcp:')
      throw new UsageError(`--url: only mqtt:// brokers are supported, not ${url.protocol}//`);
  }
  return urls;
}

/**
 * `--token <key>` as one `--token=<key>` argument: a base64url key starts with `-` one time in 32,
 * and the argument parser would take it for an option.
 */
function keyJoined(argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    if (arg === '--token' && next !== undefined) {
      joined.push(`--token=${next}`);
      i += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

function parseProfileOptions(
  values: {
    'telemetry-profile'?: string[];
    'profile-devices'?: string;
    'profile-phase'?: string;
  },
  count: number,
): TelemetryProfile | undefined {
  const texts = values['telemetry-profile'];
  if (!texts) {
    if (values['profile-devices'] !== undefined || values['profile-phase'] !== undefined)
      throw new UsageError(
        `${values['profile-devices'] !== undefined ? '--profile-devices' : '--profile-phase'}: only with --telemetry-profile`,
      );
    return undefined;
  }
  const phase = values['profile-phase']?.trim() ?? 'spread';
  if (phase !== 'spread' && phase !== 'aligned')
    throw new UsageError(`--profile-phase: "${phase}" is neither spread nor aligned`);
  const devicesText = values['profile-devices'];
  const devices =
    devicesText === undefined
      ? undefined
      : parseFaultAmount('--profile-devices', devicesText, count);
  if (devices === 0) throw new UsageError('--profile-devices: at least 1 device');
  return {
    curves: parseTelemetryProfile(texts),
    ...(devices === undefined ? {} : { devices }),
    phase,
  };
}

/** Parses the command line; throws UsageError with a message naming the flag at fault. */
export function parseSimArgs(
  argv: string[],
  env: Record<string, string | undefined> = {},
): ParsedArgs {
  let values;
  try {
    ({ values } = parseArgs({
      args: keyJoined(argv),
      strict: true,
      allowPositionals: false,
      options: {
        token: { type: 'string' },
        code: { type: 'string' },
        url: { type: 'string', multiple: true },
        count: { type: 'string' },
        series: { type: 'string' },
        prefix: { type: 'string' },
        interval: { type: 'string' },
        keepalive: { type: 'string' },
        churn: { type: 'string' },
        'bad-payloads': { type: 'string' },
        'source-ips': { type: 'string' },
        rate: { type: 'string' },
        firmware: { type: 'string' },
        'reboot-delay': { type: 'string' },
        'fault-drop': { type: 'string' },
        'fault-corrupt': { type: 'string' },
        'fault-refuse': { type: 'string' },
        'fault-reject-config': { type: 'string' },
        'telemetry-profile': { type: 'string', multiple: true },
        'profile-devices': { type: 'string' },
        'profile-phase': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) return { help: true };
  if (!values.token)
    throw new UsageError('--token: required (a token key from the Token Key page)');
  const tokenCode = values.code?.trim() ?? '';
  if (!TOKEN_CODE_PATTERN.test(tokenCode))
    throw new UsageError(
      '--code: required, the token code shown on the Token Key page (e.g. 7KQ2MZXA)',
    );
  const prefix = values.prefix ?? 'SIM';
  const count = parseCount('--count', values.count ?? '10', 1_000_000);
  if (!SN_PATTERN.test(`${prefix}000000`) || prefix.length + String(count).length > 64)
    throw new UsageError(
      `--prefix: "${prefix}" must be letters, digits, _ or - (SNs are at most 64 characters)`,
    );
  const faults: FaultAmounts = {};
  let faulty = 0;
  for (const kind of FAULT_KINDS) {
    const flag = FAULT_FLAGS[kind];
    const text = values[flag.slice(2) as keyof typeof values];
    if (typeof text !== 'string') continue;
    const amount = parseFaultAmount(flag, text, count);
    if (amount === 0) continue;
    faults[kind] = amount;
    faulty += faultyCount(kind, amount, count);
  }
  if (faulty > count)
    throw new UsageError(
      `--fault-*: ${faulty} faulty devices asked for, but there are only ${count} (each has one fault)`,
    );
  const telemetryProfile = parseProfileOptions(values, count);
  const firmware = values.firmware?.trim();
  if (firmware !== undefined && (firmware === '' || firmware.length > 64))
    throw new UsageError('--firmware: a version of 1 to 64 characters, e.g. 2.2.0');
  return {
    help: false,
    options: {
      url: parseUrls(values.url ?? [env.MQTT_URL ?? 'mqtt://127.0.0.1:1883']),
      token: values.token,
      tokenCode,
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
      ...(firmware ? { firmware } : {}),
      ...(values['reboot-delay']
        ? { rebootDelayMs: parseDuration('--reboot-delay', values['reboot-delay'], 0) }
        : {}),
      ...(Object.keys(faults).length ? { faults } : {}),
      ...(telemetryProfile ? { telemetryProfile } : {}),
    },
  };
}
