import type { TAlarm } from '@blrms/contracts';
import { Descriptions, Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime } from '../../shared/format';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { AlarmSeverityTag, AlarmStateTag } from './AlarmTags';

const dash = (value: string | number | null | undefined) =>
  value === null || value === undefined || value === '' ? '-' : value;

/** Everything about one alarm: what raised it, how often, who acknowledged and cleared it. */
export function AlarmDetailDrawer({
  alarm,
  onClose,
}: {
  alarm: TAlarm | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  return (
    <Drawer
      open={alarm !== null}
      onClose={onClose}
      width={narrow ? '100%' : 520}
      title={alarm?.ruleName ?? ''}
      destroyOnHidden
    >
      {alarm && (
        <Descriptions column={1} size="small" bordered data-testid="alarm-detail">
          <Descriptions.Item label={t('alarm.severity')}>
            <AlarmSeverityTag severity={alarm.severity} />
          </Descriptions.Item>
          <Descriptions.Item label={t('alarm.state')}>
            <AlarmStateTag state={alarm.state} />
          </Descriptions.Item>
          <Descriptions.Item label={t('alarm.message')}>{alarm.message}</Descriptions.Item>
          <Descriptions.Item label={t('alarm.device')}>
            <Link to={`/device/detail/${alarm.deviceId}`}>
              {alarm.deviceName} ({alarm.sn})
            </Link>
          </Descriptions.Item>
          <Descriptions.Item label={t('alarm.rule')}>
            {alarm.ruleId ? alarm.ruleName : `${alarm.ruleName} ${t('alarm.ruleDeleted')}`}
          </Descriptions.Item>
          <Descriptions.Item label={t('alarm.value')}>{dash(alarm.value)}</Descriptions.Item>
          <Descriptions.Item label={t('alarm.count')}>{alarm.count}</Descriptions.Item>
          <Descriptions.Item label={t('alarm.firstTime')}>
            {formatDateTime(alarm.firstTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('alarm.lastTime')}>
            {formatDateTime(alarm.lastTime)}
          </Descriptions.Item>
          <Descriptions.Item label={t('alarm.ackInfo')}>
            {alarm.ackTime ? `${dash(alarm.ackBy)} · ${formatDateTime(alarm.ackTime)}` : '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('alarm.ackComment')}>
            {dash(alarm.ackComment)}
          </Descriptions.Item>
          <Descriptions.Item label={t('alarm.clearInfo')}>
            {alarm.clearTime
              ? `${alarm.clearBy ?? t('alarm.byCondition')} · ${formatDateTime(alarm.clearTime)}`
              : '-'}
            {alarm.clearReason && ` (${t(`alarm.clearReasons.${alarm.clearReason}`)})`}
          </Descriptions.Item>
          <Descriptions.Item label={t('alarm.clearComment')}>
            {dash(alarm.clearComment)}
          </Descriptions.Item>
        </Descriptions>
      )}
    </Drawer>
  );
}
