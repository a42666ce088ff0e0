import type { TDeviceStatus } from '@blrms/contracts';
import { Badge } from 'antd';
import { useTranslation } from 'react-i18next';

/** Online (green) or offline (grey), as every device screen shows it. */
export function DeviceStatusBadge({ status }: { status: TDeviceStatus }) {
  const { t } = useTranslation();
  return (
    <Badge
      status={status === 'online' ? 'success' : 'default'}
      text={t(`deviceStatus.${status}`)}
      data-testid="device-status"
    />
  );
}
