import { describe, expect, it } from 'vitest';
import type { UpgradeFormValues } from './campaign-form';
import {
  browserUtcOffsetMinutes,
  formatUtcOffset,
  formatWaves,
  formatWindow,
  parseWaves,
  presetOf,
  spansMidnight,
  targetOf,
  INITIAL_ROLLOUT,
  rolloutBodyOf,
  upgradeBodyOf,
  upgradeFieldOf,
  WAVE_PRESETS,
  wavesOf,
} from './campaign-form';

describe('wave plans', () => {
  it('offers all at once, a tenth first and a canary first', () => {
    expect(WAVE_PRESETS.all).toEqual([100]);
    expect(WAVE_PRESETS.tenth).toEqual([10, 100]);
    expect(WAVE_PRESETS.canary).toEqual([1, 10, 100]);
  });

  it('recognises a preset and calls anything else custom', () => {
    expect(presetOf([1, 10, 100])).toBe('canary');
    expect(presetOf([100])).toBe('all');
    expect(presetOf([5, 100])).toBe('custom');
  });

  it('reads a custom plan however it is separated', () => {
    expect(parseWaves('5, 25, 100')).toEqual({ waves: [5, 25, 100] });
    expect(parseWaves('0.5% → 50% → 100%')).toEqual({ waves: [0.5, 50, 100] });
    expect(parseWaves('10，100')).toEqual({ waves: [10, 100] });
  });

  it('refuses what the server would refuse, saying why', () => {
    expect(parseWaves('  ')).toEqual({ problem: 'empty' });
    expect(parseWaves('10, half, 100')).toEqual({ problem: 'number' });
    expect(parseWaves('0, 100')).toEqual({ problem: 'range' });
    expect(parseWaves('50, 150')).toEqual({ problem: 'range' });
    expect(parseWaves('10, 10, 100')).toEqual({ problem: 'rising' });
    expect(parseWaves('50, 20, 100')).toEqual({ problem: 'rising' });
    expect(parseWaves('10, 50')).toEqual({ problem: 'end' });
    expect(parseWaves('1,2,3,4,5,6,7,8,9,10,100')).toEqual({ problem: 'count' });
  });

  it('writes a plan with arrows', () => {
    expect(formatWaves([1, 10, 100])).toBe('1% → 10% → 100%');
  });
});

describe('daily windows', () => {
  it('writes offsets from UTC the usual way', () => {
    expect(formatUtcOffset(480)).toBe('UTC+08:00');
    expect(formatUtcOffset(-210)).toBe('UTC-03:30');
    expect(formatUtcOffset(0)).toBe('UTC');
  });

  it("takes the browser's offset east of UTC", () => {
    const date = new Date('2026-06-01T00:00:00Z');
    expect(browserUtcOffsetMinutes(date)).toBe(-date.getTimezoneOffset() || 0);
  });

  it('shows a window with its zone and knows when it runs over midnight', () => {
    const window = { start: '22:00', end: '04:00', utcOffsetMinutes: 480 };
    expect(formatWindow(window)).toBe('22:00–04:00 (UTC+08:00)');
    expect(spansMidnight(window)).toBe(true);
    expect(spansMidnight({ start: '02:00', end: '05:00' })).toBe(false);
  });
});

const FIRMWARE = 'f'.repeat(32);
const DEVICE = 'd'.repeat(32);

const values = (partial: Partial<UpgradeFormValues> = {}): UpgradeFormValues => ({
  name: ' R40 to 2.0.0 ',
  firmwareId: FIRMWARE,
  targetKind: 'devices',
  deviceIds: [DEVICE],
  onlineOnly: false,
  wavePreset: 'canary',
  ...INITIAL_ROLLOUT,
  maxConcurrent: 50,
  windowOn: false,
  jitterSec: 0,
  ...partial,
});

describe('the new-upgrade form', () => {
  it('names nothing until the chosen kind of target is filled in', () => {
    expect(targetOf(values({ deviceIds: [] }), 'R40')).toBeNull();
    expect(targetOf(values({ targetKind: 'group' }), 'R40')).toBeNull();
    expect(targetOf(values({ targetKind: 'series' }), undefined)).toBeNull();
  });

  it('targets devices with any of the chosen tags', () => {
    expect(targetOf(values({ targetKind: 'tags', tags: [] }), 'R40')).toBeNull();
    expect(targetOf(values({ targetKind: 'tags', tags: ['北区', 'pilot'] }), 'R40')).toEqual({
      tags: ['北区', 'pilot'],
      versionFrom: undefined,
      versionTo: undefined,
      onlineOnly: false,
    });
    expect(upgradeFieldOf(['target', 'tags', '0'], 'all')).toBe('tags');
  });

  it("targets the firmware's series, narrowed by version and presence", () => {
    expect(
      targetOf(
        values({ targetKind: 'series', versionFrom: ' 1.0 ', versionTo: '', onlineOnly: true }),
        'R40',
      ),
    ).toEqual({ series: 'R40', versionFrom: '1.0', versionTo: undefined, onlineOnly: true });
  });

  it('reads the wave plan from the preset or the custom text', () => {
    expect(wavesOf({ wavePreset: 'tenth' })).toEqual([10, 100]);
    expect(wavesOf({ wavePreset: 'custom', customWaves: '5, 100' })).toEqual([5, 100]);
    expect(wavesOf({ wavePreset: 'custom', customWaves: '5, 50' })).toBeNull();
  });

  it('builds the body of an upgrade with a window in the browser’s zone', () => {
    const date = new Date('2026-06-01T00:00:00Z');
    const body = upgradeBodyOf(
      values({ windowOn: true, window: { start: '22:00', end: '04:00' }, jitterSec: 30 }),
      'R40',
      date,
    );
    expect(body).toEqual({
      name: 'R40 to 2.0.0',
      kind: 'ota',
      firmwareId: FIRMWARE,
      target: {
        deviceIds: [DEVICE],
        versionFrom: undefined,
        versionTo: undefined,
        onlineOnly: false,
      },
      waves: [1, 10, 100],
      maxConcurrent: 50,
      failureThresholdPercent: 20,
      soakMinutes: 0,
      approveEachWave: false,
      waveDeadlineMinutes: undefined,
      onWaveDeadline: undefined,
      startAt: undefined,
      window: { start: '22:00', end: '04:00', utcOffsetMinutes: browserUtcOffsetMinutes(date) },
      jitterSec: 30,
    });
    expect(upgradeBodyOf(values({ window: { start: '22:00', end: '04:00' } }), 'R40')?.window).toBe(
      undefined,
    );
    expect(upgradeBodyOf(values({ firmwareId: undefined }), 'R40')).toBeNull();
  });

  it('sends the gates between waves and the start time only when switched on', () => {
    const startAt = '2026-12-01T02:00:00.000Z';
    const off = rolloutBodyOf({ ...INITIAL_ROLLOUT, waveDeadlineMinutes: 30, startAt });
    expect(off).toMatchObject({ waveDeadlineMinutes: undefined, startAt: undefined });
    expect(
      rolloutBodyOf({
        ...INITIAL_ROLLOUT,
        soakMinutes: 15,
        approveEachWave: true,
        waveDeadlineOn: true,
        waveDeadlineMinutes: 30,
        onWaveDeadline: 'fail',
        startLater: true,
        startAt,
      }),
    ).toEqual({
      maxConcurrent: 100,
      failureThresholdPercent: 20,
      soakMinutes: 15,
      approveEachWave: true,
      waveDeadlineMinutes: 30,
      onWaveDeadline: 'fail',
      startAt,
    });
  });

  it("puts the server's objections on the fields they name", () => {
    expect(upgradeFieldOf(['target', 'versionFrom'], 'all')).toBe('versionFrom');
    expect(upgradeFieldOf(['target', 'deviceIds', '3'], 'all')).toBe('deviceIds');
    expect(upgradeFieldOf(['target'], 'all')).toBe('targetKind');
    expect(upgradeFieldOf(['waves'], 'custom')).toBe('customWaves');
    expect(upgradeFieldOf(['waves'], 'canary')).toBe('wavePreset');
    expect(upgradeFieldOf(['window', 'end'], 'all')).toBe('window');
    expect(upgradeFieldOf(['maxConcurrent'], 'all')).toBe('maxConcurrent');
    expect(upgradeFieldOf(['startAt'], 'all')).toBe('startAt');
    expect(upgradeFieldOf(['configPatch'], 'all')).toBeNull();
  });
});
