import type { TAlarm } from '@blrms/contracts';
import { ZAlarmQuery } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import type { AlarmPage, AlarmParams } from './alarm-filters';
import { ALARM_PAGE, alarmMatches, applyAlarm, filterOf, searchFromUrl } from './alarm-filters';

const ID = (n: number) => n.toString(16).padStart(32, '0');

function alarm(over: Partial<TAlarm> = {}): TAlarm {
  return {
    id: ID(1),
    ruleId: ID(9),
    ruleName: 'ain1 high',
    conditionType: 'telemetry',
    severity: 'critical',
    state: 'active',
    deviceId: ID(5),
    sn: 'R40-0001',
    deviceName: 'Pump house',
    groupId: ID(7),
    message: 'ain1 = 25',
    value: 25,
    count: 1,
    firstTime: '2026-03-01T10:00:00.000Z',
    lastTime: '2026-03-01T10:00:00.000Z',
    ackBy: null,
    ackTime: null,
    ackComment: null,
    clearBy: null,
    clearTime: null,
    clearComment: null,
    clearReason: null,
    ...over,
  };
}

const params = (over: Partial<AlarmParams> = {}): AlarmParams => ({ ...ALARM_PAGE, ...over });
const page = (...records: TAlarm[]): AlarmPage => ({ records, total: records.length });

describe('filter → query', () => {
  it('sends severities and states as comma lists the contract reads back', () => {
    const filter = filterOf({
      severity: ['critical', 'major'],
      state: ['active'],
      sn: '  R40 ',
      lastTime: ['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
    });
    expect(filter).toEqual({
      severity: 'critical,major',
      state: 'active',
      ruleId: undefined,
      groupId: undefined,
      sn: 'R40',
      timeFrom: '2026-03-01T00:00:00.000Z',
      timeTo: '2026-03-02T00:00:00.000Z',
    });
    const parsed = ZAlarmQuery.parse({ ...ALARM_PAGE, ...filter });
    expect(parsed.severity).toEqual(['critical', 'major']);
    expect(parsed.state).toEqual(['active']);
  });

  it('leaves out empty filters', () => {
    expect(Object.values(filterOf({ severity: [], sn: ' ' })).every((v) => v === undefined)).toBe(
      true,
    );
  });

  it('reads a link’s filter and drops values it does not know', () => {
    const search = searchFromUrl(new URLSearchParams('severity=critical,bogus&state=active'));
    expect(search).toMatchObject({ severity: ['critical'], state: ['active'] });
    expect(searchFromUrl(new URLSearchParams('severity=bogus')).severity).toBeUndefined();
  });
});

describe('live alarms', () => {
  it('matches the filter the server applies', () => {
    expect(alarmMatches(alarm(), params({ severity: 'critical,major', state: 'active' }))).toBe(
      true,
    );
    expect(alarmMatches(alarm(), params({ state: 'acknowledged,cleared' }))).toBe(false);
    expect(alarmMatches(alarm(), params({ sn: 'pump' }))).toBe(true);
    expect(alarmMatches(alarm(), params({ deviceId: ID(6) }))).toBe(false);
    expect(alarmMatches(alarm(), params({ timeTo: '2026-03-01T10:00:00.000Z' }))).toBe(false);
    expect(alarmMatches(alarm(), params({ timeFrom: '2026-03-01T10:00:00.000Z' }))).toBe(true);
  });

  it('reloads for a new alarm that matches, not for one that does not', () => {
    const shown = page(alarm({ id: ID(2) }));
    expect(applyAlarm(params(), shown, alarm())).toEqual({ page: shown, reload: true });
    expect(applyAlarm(params({ severity: 'minor' }), shown, alarm()).reload).toBe(false);
  });

  it('patches a shown row in place', () => {
    const acked = alarm({ state: 'acknowledged', ackBy: 'ops', count: 3 });
    const result = applyAlarm(params(), page(alarm()), acked);
    expect(result.reload).toBe(false);
    expect(result.page.records).toEqual([acked]);
  });

  it('reloads when a shown alarm leaves the filter', () => {
    const shown = page(alarm());
    const result = applyAlarm(params({ state: 'active' }), shown, alarm({ state: 'cleared' }));
    expect(result).toEqual({ page: shown, reload: true });
  });

  it('ignores a message older than the row', () => {
    const shown = page(alarm({ state: 'cleared' }));
    expect(applyAlarm(params(), shown, alarm())).toEqual({ page: shown, reload: false });
  });
});
