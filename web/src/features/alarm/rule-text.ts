import type { TAlarmCondition, TAlarmRule } from '@blrms/contracts';
import type { TFunction } from 'i18next';

/** A rule's condition in a few words: `ain1 > 20 for 2 s`, `Offline for more than 10 min`. */
export function conditionText(t: TFunction, condition: TAlarmCondition): string {
  switch (condition.type) {
    case 'telemetry': {
      const { key, operator, threshold, low, high, durationSec } = condition;
      const compare = t(`alarm.summary.${operator}`, {
        name: key,
        threshold: threshold ?? '',
        low: low ?? '',
        high: high ?? '',
      });
      return durationSec > 0 ? compare + t('alarm.summary.held', { sec: durationSec }) : compare;
    }
    case 'event':
      return t('alarm.summary.event', {
        code: condition.code,
        level: t(`alarm.eventLevels.${condition.level}`),
      });
    case 'offline':
      return t('alarm.summary.offline', { minutes: condition.minutes });
    case 'config-failed':
    case 'upgrade-failed':
      return t(`alarm.conditionTypes.${condition.type}`);
  }
}

/** Which devices a rule watches: `All devices`, `A series: R40`, `A group: Plant 2`. */
export function scopeText(t: TFunction, rule: Pick<TAlarmRule, 'scope' | 'scopeLabel'>): string {
  const kind = t(`alarm.scopeKinds.${rule.scope.kind}`);
  switch (rule.scope.kind) {
    case 'all':
      return kind;
    case 'series':
      return `${kind}: ${rule.scope.series}`;
    case 'group':
    case 'device':
      return `${kind}: ${rule.scopeLabel ?? '-'}`;
  }
}
