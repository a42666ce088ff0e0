import type { TDeviceStatus, TExpectedRestart } from '@blrms/contracts';
import { Badge, Tooltip } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../format';

/** Whether the restart's window is still open; turns false by itself when it ends. */
function useRestartPending(restart: TExpectedRestart | null | undefined): boolean {
  const until = restart ? Date.parse(restart.until) : 0;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const left = until - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => setNow(Date.now()), left);
    return () => clearTimeout(timer);
  }, [until]);
  return until > now;
}

/**
 * Online (green) or offline (grey), as every device screen shows it. An offline device that the
 * platform itself made restart (a reboot command, an upgrade) shows as rebooting or upgrading
 * (blue) until the expected window ends; after that it is offline like any other.
 */
export function DeviceStatusBadge({
  status,
  expectedRestart,
}: {
  status: TDeviceStatus;
  expectedRestart?: TExpectedRestart | null;
}) {
  const { t } = useTranslation();
  const restarting = useRestartPending(expectedRestart) && status === 'offline';
  if (restarting && expectedRestart) {
    return (
      <Tooltip
        title={t('deviceStatus.restartUntil', { time: formatDateTime(expectedRestart.until) })}
      >
        <Badge
          status="processing"
          text={t(`deviceStatus.restart.${expectedRestart.kind}`)}
          data-testid="device-status"
        />
      </Tooltip>
    );
  }
  return (
    <Badge
      status={status === 'online' ? 'success' : 'default'}
      text={t(`deviceStatus.${status}`)}
      data-testid="device-status"
    />
  );
}
