import { DeviceLogTable } from '../../shared/device/DeviceLogTable';

/**
 * Device logs (spec section 2): what was sent to devices and what came back, read-only, with
 * filters and a viewer for the content.
 */
export default function DeviceLogListPage() {
  return (
    <div data-testid="device-log-page">
      <DeviceLogTable />
    </div>
  );
}
