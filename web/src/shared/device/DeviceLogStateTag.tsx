import type { TDeviceLogState } from '@blrms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TDeviceLogState, string> = {
  pending: 'default',
  sent: 'processing',
  acked: 'cyan',
  succeeded: 'success',
  failed: 'error',
  timeout: 'warning',
};

/** The state of a device log (an action sent to a device and how it ended), as a coloured tag. */
export function DeviceLogStateTag({ state }: { state: TDeviceLogState }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[state]} data-testid="device-log-state">
      {t(`deviceLogState.${state}`)}
    </Tag>
  );
}
