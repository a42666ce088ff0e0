import { AlarmTable } from './AlarmTable';

/** The device page's 告警 / Alarms tab: that device's alarms, live, with acknowledge and clear. */
export function DeviceAlarmsTab({ deviceId }: { deviceId: string }) {
  return <AlarmTable deviceId={deviceId} />;
}
