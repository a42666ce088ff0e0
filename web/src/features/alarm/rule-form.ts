import type {
  TAlarmCondition,
  TAlarmConditionType,
  TAlarmRule,
  TAlarmRuleInput,
  TAlarmScope,
  TAlarmSeverity,
  TDeviceSeries,
  TMessageChannel,
} from '@blrms/contracts';

type Operator = 'above' | 'below' | 'outside';

/**
 * The rule form's fields. They follow the request's shape (so the server's field errors, named
 * by path, land on them) with every variant's fields side by side: the form shows those of the
 * chosen scope kind and condition type, and `ruleInputOf` sends only those.
 */
export type RuleFormValues = {
  name: string;
  enabled: boolean;
  severity: TAlarmSeverity;
  description?: string;
  scope: {
    kind: TAlarmScope['kind'];
    series?: TDeviceSeries;
    groupId?: string;
    deviceId?: string;
  };
  condition: {
    type: TAlarmConditionType;
    key?: string;
    operator?: Operator;
    threshold?: number | null;
    low?: number | null;
    high?: number | null;
    durationSec?: number | null;
    code?: string;
    level?: 'warn' | 'alarm';
    minutes?: number | null;
  };
  message: { zh?: string; en?: string };
  quiet: boolean;
  quietHours?: { start?: string; end?: string; timeZone?: string };
  remind: boolean;
  reminderMinutes?: number | null;
  notify: {
    channels: TMessageChannel[];
    userIds: string[];
    roleIds: string[];
    departIds: string[];
    onClear: boolean;
  };
};

export const DEFAULT_REMINDER_MINUTES = 30;

/** The form's first values: the rule's, or a new rule's (a telemetry value above a threshold). */
export function ruleFormValues(rule: TAlarmRule | null, timeZone: string): RuleFormValues {
  if (!rule) {
    return {
      name: '',
      enabled: true,
      severity: 'major',
      scope: { kind: 'all' },
      condition: { type: 'telemetry', operator: 'above', durationSec: 0, level: 'alarm' },
      message: { zh: '', en: '' },
      quiet: false,
      quietHours: { start: '22:00', end: '07:00', timeZone },
      remind: false,
      reminderMinutes: DEFAULT_REMINDER_MINUTES,
      notify: { channels: ['system'], userIds: [], roleIds: [], departIds: [], onClear: true },
    };
  }
  const { scope, condition } = rule;
  return {
    name: rule.name,
    enabled: rule.enabled,
    severity: rule.severity,
    description: rule.description ?? undefined,
    scope: {
      kind: scope.kind,
      series: scope.kind === 'series' ? scope.series : undefined,
      groupId: scope.kind === 'group' ? scope.groupId : undefined,
      deviceId: scope.kind === 'device' ? scope.deviceId : undefined,
    },
    condition: { durationSec: 0, level: 'alarm', operator: 'above', ...condition },
    message: { zh: rule.message.zh, en: rule.message.en },
    quiet: rule.quietHours !== null,
    quietHours: rule.quietHours ?? { start: '22:00', end: '07:00', timeZone },
    remind: rule.reminderMinutes !== null,
    reminderMinutes: rule.reminderMinutes ?? DEFAULT_REMINDER_MINUTES,
    notify: { ...rule.notify },
  };
}

function scopeOf(scope: RuleFormValues['scope']): TAlarmScope {
  switch (scope.kind) {
    case 'series':
      return { kind: 'series', series: scope.series! };
    case 'group':
      return { kind: 'group', groupId: scope.groupId! };
    case 'device':
      return { kind: 'device', deviceId: scope.deviceId! };
    default:
      return { kind: 'all' };
  }
}

const num = (value: number | null | undefined) => (value === null ? undefined : value);

function conditionOf(c: RuleFormValues['condition']): TAlarmCondition {
  switch (c.type) {
    case 'telemetry': {
      const operator = c.operator ?? 'above';
      const bounds =
        operator === 'outside'
          ? { low: num(c.low), high: num(c.high) }
          : { threshold: num(c.threshold) };
      return {
        type: 'telemetry',
        key: (c.key ?? '').trim(),
        operator,
        ...bounds,
        durationSec: c.durationSec ?? 0,
      };
    }
    case 'event':
      return { type: 'event', code: (c.code ?? '').trim(), level: c.level ?? 'alarm' };
    case 'offline':
      return { type: 'offline', minutes: c.minutes ?? 0 };
    case 'config-failed':
      return { type: 'config-failed' };
    case 'upgrade-failed':
      return { type: 'upgrade-failed' };
  }
}

/** The request for the form's values: the chosen scope's and condition's fields only. */
export function ruleInputOf(v: RuleFormValues): TAlarmRuleInput {
  const description = v.description?.trim();
  const quiet = v.quietHours;
  return {
    name: v.name.trim(),
    enabled: v.enabled,
    severity: v.severity,
    scope: scopeOf(v.scope),
    condition: conditionOf(v.condition),
    message: { zh: v.message.zh?.trim() ?? '', en: v.message.en?.trim() ?? '' },
    quietHours:
      v.quiet && quiet?.start && quiet.end && quiet.timeZone
        ? { start: quiet.start, end: quiet.end, timeZone: quiet.timeZone }
        : null,
    reminderMinutes: v.remind ? (v.reminderMinutes ?? DEFAULT_REMINDER_MINUTES) : null,
    notify: {
      channels: v.notify.channels,
      userIds: v.notify.userIds,
      roleIds: v.notify.roleIds,
      departIds: v.notify.departIds,
      onClear: v.notify.onClear,
    },
    ...(description ? { description } : {}),
  };
}
