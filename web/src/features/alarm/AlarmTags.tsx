import type { TAlarmSeverity, TAlarmState } from '@blrms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Tag colours (antd presets) and the same hues as plain colours, for figures and charts. */
export const SEVERITY_TAG_COLORS: Record<TAlarmSeverity, string> = {
  critical: 'red',
  major: 'volcano',
  minor: 'gold',
  warning: 'blue',
};
export const SEVERITY_COLORS: Record<TAlarmSeverity, string> = {
  critical: '#cf1322',
  major: '#d4380d',
  minor: '#d48806',
  warning: '#1677ff',
};

/** Active is what needs someone; acknowledged is being handled; cleared is over. */
const STATE_COLORS: Record<TAlarmState, string> = {
  active: 'error',
  acknowledged: 'processing',
  cleared: 'default',
};

export function AlarmSeverityTag({ severity }: { severity: TAlarmSeverity }) {
  const { t } = useTranslation();
  return (
    <Tag color={SEVERITY_TAG_COLORS[severity]} data-testid="alarm-severity">
      {t(`alarm.severities.${severity}`)}
    </Tag>
  );
}

export function AlarmStateTag({ state }: { state: TAlarmState }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLORS[state]} data-testid="alarm-state">
      {t(`alarm.states.${state}`)}
    </Tag>
  );
}
