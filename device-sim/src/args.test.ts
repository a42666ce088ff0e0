import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  UsageError,
  parseDuration,
  parseSimArgs,
  parseSourceIps,
  parseTelemetryProfile,
} from './args.js';

const parse = (...argv: string[]) => parseSimArgs(argv, {});
const errorOf = (...argv: string[]) => {
  try {
    parse(...argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error('expected a usage error');
};

describe('sim command line', () => {
  it('fills in sensible defaults around the token', () => {
    expect(parse('--code', 'ABCD2345', '--token', 'k')).toEqual({
      help: false,
      options: {
        url: ['mqtt://127.0.0.1:1883'],
        token: 'k',
        tokenCode: 'ABCD2345',
        count: 10,
        series: ['R40', 'BL10X', 'S27X'],
        prefix: 'SIM',
        intervalMs: 10_000,
        keepaliveSec: 60,
        churn: 0,
        badPayloadRate: 0,
        sourceIps: [],
        connectRate: 500,
      },
    });
  });

  it('takes a key that starts with a dash, as one in 32 keys does', () => {
    expect(parse('--code', 'ABCD2345', '--token', '-k3y_x')).toMatchObject({
      options: { token: '-k3y_x' },
    });
  });

  it('takes the broker from MQTT_URL unless --url is given', () => {
    const env = { MQTT_URL: 'mqtt://10.0.0.1:1884' };
    expect(parseSimArgs(['--code', 'ABCD2345', '--token', 'k'], env)).toMatchObject({
      options: { url: [env.MQTT_URL] },
    });
    expect(
      parseSimArgs(['--code', 'ABCD2345', '--token', 'k', '--url', 'mqtt://h:1'], env),
    ).toMatchObject({
      options: { url: ['mqtt://h:1'] },
    });
  });

  it('takes several brokers, as a comma list or a repeated --url, in order', () => {
    const urls = ['mqtt://a:1883', 'mqtt://b:1883', 'mqtt://c:1884'];
    const base = ['--code', 'ABCD2345', '--token', 'k'];
    expect(parse(...base, '--url', `${urls[0]}, ${urls[1]}`, '--url', urls[2]!)).toMatchObject({
      options: { url: urls },
    });
    expect(errorOf(...base, '--url', `${urls[0]},http://b`)).toMatch(/only mqtt:\/\//);
    expect(errorOf(...base, '--url', `${urls[0]},`)).toMatch(/"" is not a URL/);
  });

  it('reads every option', () => {
    const parsed = parse(
      ...[
        '--code',
        'ABCD2345',
        '--token',
        'k',
        '--count',
        '100',
        '--series',
        'S27X',
        '--prefix',
        'LAB-',
      ],
      ...['--interval', '500ms', '--keepalive', '2m', '--churn', '0.01', '--bad-payloads', '0.001'],
      ...['--source-ips', '127.0.0.2-127.0.0.4,10.0.0.9', '--rate', '2000'],
    );
    expect(parsed).toMatchObject({
      options: {
        count: 100,
        series: ['S27X'],
        prefix: 'LAB-',
        intervalMs: 500,
        keepaliveSec: 120,
        churn: 0.01,
        badPayloadRate: 0.001,
        sourceIps: ['127.0.0.2', '127.0.0.3', '127.0.0.4', '10.0.0.9'],
        connectRate: 2000,
      },
    });
  });

  it('reads upgrade settings and faults as counts or shares of the fleet', () => {
    const parsed = parse(
      ...[
        '--code',
        'ABCD2345',
        '--token',
        'k',
        '--count',
        '200',
        '--firmware',
        '2.0.0',
        '--reboot-delay',
        '500ms',
      ],
      ...['--fault-drop', '1', '--fault-corrupt', '0.05', '--fault-refuse', '2%'],
      ...['--fault-reject-config', '0'],
    );
    expect(parsed).toMatchObject({
      options: {
        firmware: '2.0.0',
        rebootDelayMs: 500,
        faults: { dropMidDownload: 1, corruptDownload: 0.05, refuseUpgrade: 0.02 },
      },
    });
    expect(parsed.help === false && parsed.options.faults).not.toHaveProperty('rejectConfig');
    expect(
      errorOf('--code', 'ABCD2345', '--token', 'k', '--count', '5', '--fault-drop', '6'),
    ).toMatch(/^--fault-drop: 6 is more than the 5 devices/);
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--fault-corrupt', 'some')).toMatch(
      /^--fault-corrupt: "some"/,
    );
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--fault-refuse', '150%')).toMatch(
      /^--fault-refuse:/,
    );
    expect(
      errorOf(
        '--code',
        'ABCD2345',
        '--token',
        'k',
        '--count',
        '3',
        '--fault-drop',
        '2',
        '--fault-refuse',
        '2',
      ),
    ).toMatch(/4 faulty devices asked for, but there are only 3/);
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--firmware', '')).toMatch(/^--firmware:/);
  });

  it('reads a telemetry profile, the devices that follow it and their phase', () => {
    const base = ['--code', 'ABCD2345', '--token', 'k', '--count', '50'];
    expect(
      parse(
        ...base,
        '--telemetry-profile',
        'ain1=square:10,25:60s, signal=ramp:-80,-115:2m',
        '--telemetry-profile',
        'temp=sine:20.5,80:300s;door=const:1',
        '--profile-devices',
        '10%',
      ),
    ).toMatchObject({
      options: {
        telemetryProfile: {
          curves: [
            { key: 'ain1', shape: 'square', from: 10, to: 25, periodMs: 60_000, decimals: 0 },
            { key: 'signal', shape: 'ramp', from: -80, to: -115, periodMs: 120_000 },
            { key: 'temp', shape: 'sine', from: 20.5, to: 80, periodMs: 300_000, decimals: 1 },
            { key: 'door', shape: 'const', from: 1, to: 1, periodMs: 0 },
          ],
          devices: 0.1,
          phase: 'spread',
        },
      },
    });
    expect(
      parse(
        ...base,
        '--telemetry-profile',
        'ain1=const:25',
        '--profile-devices',
        '5',
        '--profile-phase',
        'aligned',
      ),
    ).toMatchObject({ options: { telemetryProfile: { devices: 5, phase: 'aligned' } } });
    expect(parse(...base)).not.toHaveProperty('options.telemetryProfile');
  });

  it('names the part of a telemetry profile at fault', () => {
    const error = (...texts: string[]) => {
      try {
        parseTelemetryProfile(texts);
      } catch (e) {
        if (e instanceof UsageError) return e.message;
        throw e;
      }
      throw new Error('expected a usage error');
    };
    expect(error('ain1')).toMatch(/^--telemetry-profile: "ain1": expected <key>=<shape>/);
    expect(error('9x=const:1')).toMatch(/"9x=const:1": "9x" is not a telemetry key/);
    expect(error('ain1=squar:10,25:60s')).toMatch(/unknown shape "squar" \(use const, square/);
    expect(error('ain1=square:10,25')).toMatch(/expected square:<a>,<b>:<period>/);
    expect(error('ain1=square:10:60s')).toMatch(/"10" is not two values/);
    expect(error('ain1=ramp:10,high:60s')).toMatch(
      /"ain1=ramp:10,high:60s": "high" is not a number/,
    );
    expect(error('ain1=sine:10,20:soon')).toMatch(
      /"ain1=sine:10,20:soon": period: "soon" is not a duration/,
    );
    expect(error('ain1=const:1:60s')).toMatch(/expected const:<value>/);
    expect(error('ain1=const:1;ain1=const:2')).toMatch(/ain1 is given twice/);
    expect(error(' ; ')).toMatch(/no <key>=<shape>/);
    const base = ['--code', 'ABCD2345', '--token', 'k', '--count', '5'];
    expect(errorOf(...base, '--profile-devices', '2')).toMatch(
      /^--profile-devices: only with --telemetry-profile/,
    );
    expect(errorOf(...base, '--telemetry-profile', 'a=const:1', '--profile-devices', '6')).toMatch(
      /^--profile-devices: 6 is more than the 5 devices/,
    );
    expect(errorOf(...base, '--telemetry-profile', 'a=const:1', '--profile-devices', '0')).toMatch(
      /^--profile-devices: at least 1/,
    );
    expect(
      errorOf(...base, '--telemetry-profile', 'a=const:1', '--profile-phase', 'random'),
    ).toMatch(/^--profile-phase: "random" is neither spread nor aligned/);
  });

  it('names the flag at fault', () => {
    expect(errorOf()).toMatch(/^--token: required/);
    expect(errorOf('--token', 'k')).toMatch(/^--code: required/);
    expect(errorOf('--token', 'k', '--code', 'not a code')).toMatch(/^--code: required/);
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--count', 'many')).toMatch(
      /^--count: "many" is not a whole number/,
    );
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--count', '0')).toMatch(
      /^--count: must be between 1/,
    );
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--series', 'R40,X9')).toMatch(
      /^--series: unknown series "X9"/,
    );
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--interval', 'soon')).toMatch(
      /^--interval: "soon" is not a duration/,
    );
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--churn', '2')).toMatch(
      /^--churn: "2" is not a probability/,
    );
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--bad-payloads', '')).toMatch(
      /^--bad-payloads:/,
    );
    expect(
      errorOf('--code', 'ABCD2345', '--token', 'k', '--source-ips', '127.0.0.9-127.0.0.2'),
    ).toMatch(/^--source-ips: range "127.0.0.9-127.0.0.2" runs backwards/);
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--source-ips', 'localhost')).toMatch(
      /^--source-ips:/,
    );
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--url', 'mqtts://h')).toMatch(
      /^--url: only mqtt:\/\//,
    );
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--prefix', 'a b')).toMatch(/^--prefix:/);
    expect(errorOf('--code', 'ABCD2345', '--token', 'k', '--colour', 'red')).toMatch(/'--colour'/);
  });

  it('parses durations and address ranges', () => {
    expect(parseDuration('--x', '1.5s', 0)).toBe(1500);
    expect(parseDuration('--x', '2', 0)).toBe(2000);
    expect(parseDuration('--x', '1h', 0)).toBe(3_600_000);
    expect(parseSourceIps('127.0.0.254-127.0.1.1')).toEqual([
      '127.0.0.254',
      '127.0.0.255',
      '127.0.1.0',
      '127.0.1.1',
    ]);
  });

  it('the CLI prints usage on --help and exits 2 on a bad flag', () => {
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const run = (...args: string[]) =>
      spawnSync(process.execPath, ['--import', 'tsx', '--conditions=source', cli, ...args], {
        encoding: 'utf8',
        timeout: 20_000,
      });
    const help = run('--help');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: npm run sim -- --code <token code> --token <key>');
    expect(help.stdout).toContain('--fault-drop <n>');
    expect(help.stdout).toContain('reconnects to the next one');
    expect(help.stdout).toContain('--telemetry-profile <spec>');
    const bad = run('--code', 'ABCD2345', '--token', 'k', '--count', '-3');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--count/);
  });
});
