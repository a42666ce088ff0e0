import { DeviceLogTable } from '../../shared/device/DeviceLogTable';
import { useHasAction } from '../../shared/permission/use-has-action';
import { RetentionButton } from './RetentionButton';

/**
 * Device logs (spec section 2): what was sent to devices and what came back, read-only, with
 * filters and a viewer for the content. Platform administrators also set here how long device
 * telemetry and events are kept.
 */
export default function DeviceLogListPage() {
  const canSetRetention = useHasAction('device:retention');
  return (
    <div data-testid="device-log-page">
      <DeviceLogTable
        toolbar={canSetRetention ? [<RetentionButton key="retention" />] : undefined}
      />
    </div>
  );
}
