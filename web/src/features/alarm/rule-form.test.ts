import type { TAlarmRule } from '@blrms/contracts';
import { ZAlarmRuleInput } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import type { RuleFormValues } from './rule-form';
import { ruleFormValues, ruleInputOf } from './rule-form';

const ID = (n: number) => n.toString(16).padStart(32, '0');
const ZONE = 'Asia/Shanghai';

function values(over: Partial<RuleFormValues> = {}): RuleFormValues {
  return { ...ruleFormValues(null, ZONE), name: ' ain1 high ', ...over };
}

describe('rule form → ZAlarmRuleInput', () => {
  it('sends a telemetry rule above a threshold, held for a while', () => {
    const input = ruleInputOf(
      values({
        severity: 'critical',
        condition: {
          type: 'telemetry',
          key: 'ain1',
          operator: 'above',
          threshold: 20,
          low: 1,
          durationSec: 2,
        },
      }),
    );
    expect(input).toMatchObject({
      name: 'ain1 high',
      severity: 'critical',
      scope: { kind: 'all' },
      condition: {
        type: 'telemetry',
        key: 'ain1',
        operator: 'above',
        threshold: 20,
        durationSec: 2,
      },
      quietHours: null,
      reminderMinutes: null,
      notify: { channels: ['system'], userIds: [], roleIds: [], departIds: [], onClear: true },
    });
    expect(input.condition).not.toHaveProperty('low');
    expect(ZAlarmRuleInput.parse(input)).toEqual(input);
  });

  it('sends a range with low and high only', () => {
    const input = ruleInputOf(
      values({
        condition: {
          type: 'telemetry',
          key: 'temp',
          operator: 'outside',
          threshold: 5,
          low: -10,
          high: 40,
        },
      }),
    );
    expect(input.condition).toEqual({
      type: 'telemetry',
      key: 'temp',
      operator: 'outside',
      low: -10,
      high: 40,
      durationSec: 0,
    });
    expect(ZAlarmRuleInput.safeParse(input).success).toBe(true);
  });

  it('sends only the chosen scope and condition type', () => {
    const input = ruleInputOf(
      values({
        scope: { kind: 'group', groupId: ID(3), series: 'R40', deviceId: ID(4) },
        condition: { type: 'offline', minutes: 15, key: 'ain1', threshold: 3 },
      }),
    );
    expect(input.scope).toEqual({ kind: 'group', groupId: ID(3) });
    expect(input.condition).toEqual({ type: 'offline', minutes: 15 });
    expect(
      ruleInputOf(values({ condition: { type: 'upgrade-failed', minutes: 3 } })).condition,
    ).toEqual({ type: 'upgrade-failed' });
  });

  it('sends quiet hours and reminders only when switched on', () => {
    const on = ruleInputOf(
      values({
        quiet: true,
        quietHours: { start: '22:00', end: '06:30', timeZone: ZONE },
        remind: true,
        reminderMinutes: 15,
        description: ' ',
      }),
    );
    expect(on.quietHours).toEqual({ start: '22:00', end: '06:30', timeZone: ZONE });
    expect(on.reminderMinutes).toBe(15);
    expect(on).not.toHaveProperty('description');
    const off = ruleInputOf(values({ quiet: false, remind: false, reminderMinutes: 15 }));
    expect(off.quietHours).toBeNull();
    expect(off.reminderMinutes).toBeNull();
  });

  it('reads a rule back into the same request', () => {
    const rule: TAlarmRule = {
      id: ID(1),
      name: 'Offline',
      enabled: false,
      severity: 'minor',
      scope: { kind: 'device', deviceId: ID(5) },
      scopeLabel: 'Pump house',
      condition: { type: 'event', code: 'di1', level: 'warn' },
      message: { zh: '{{device}} 门被打开', en: '{{device}} door open' },
      quietHours: { start: '23:00', end: '07:00', timeZone: 'Europe/Berlin' },
      reminderMinutes: 60,
      notify: {
        channels: ['email'],
        userIds: [ID(8)],
        roleIds: [],
        departIds: [ID(9)],
        onClear: false,
      },
      description: 'door',
      openAlarms: 0,
      createBy: 'admin',
      createTime: '2026-03-01T10:00:00.000Z',
      updateTime: null,
    };
    const input = ruleInputOf(ruleFormValues(rule, ZONE));
    const {
      id: _id,
      scopeLabel: _l,
      openAlarms: _o,
      createBy: _c,
      createTime: _t,
      updateTime: _u,
      ...sent
    } = rule;
    expect(input).toEqual({ ...sent, description: 'door' });
  });
});
