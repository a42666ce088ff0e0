import { AlertOutlined } from '@ant-design/icons';
import { ALARMS_CHANNEL } from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useChannel, useRealtimeMessage } from '../../realtime/use-realtime';
import { ALARM_COUNTS_KEY, useAlarmCounts } from '../../shared/alarm/use-alarm-counts';
import { useLiveReload } from '../../shared/device/use-device-status';
import { useHasAction } from '../../shared/permission/use-has-action';

/** Where the count leads: the alarm list filtered to the critical alarms nobody acknowledged. */
const UNACKNOWLEDGED_CRITICAL = '/alarm/list?severity=critical&state=active';

/**
 * The header's count of unacknowledged critical alarms, beside the bell, for users with
 * `alarm:list`; a click opens the alarm list filtered to them. Kept live over the `alarms`
 * channel: every change reloads the counts, at most once a second.
 */
export function AlarmCount() {
  return useHasAction('alarm:list') ? <LiveAlarmCount /> : null;
}

function LiveAlarmCount() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const counts = useAlarmCounts();
  const reload = useLiveReload(() => client.invalidateQueries({ queryKey: ALARM_COUNTS_KEY }));
  useChannel(ALARMS_CHANNEL, reload.request);
  useRealtimeMessage(['alarm'], reload.request);
  const count = counts.data?.unacknowledged.critical ?? 0;
  const label = t('header.criticalAlarms', { count });
  return (
    <Tooltip title={label}>
      <button
        type="button"
        className="shell-action"
        aria-label={label}
        onClick={() => navigate(UNACKNOWLEDGED_CRITICAL)}
        data-testid="alarm-count"
      >
        <Badge count={count} size="small" overflowCount={99} data-testid="alarm-count-badge">
          <AlertOutlined className="notice-bell__icon" />
        </Badge>
      </button>
    </Tooltip>
  );
}
