import type { TAlarm } from '@blrms/contracts';
import { ALARMS_CHANNEL } from '@blrms/contracts';
import { useChannel, useRealtimeMessage } from '../../realtime/use-realtime';

/**
 * Changes of the alarms the user may see while mounted, over the `alarms` channel: `onAlarm` gets
 * each alarm as it is after the change; `onSubscribed` runs when the server confirms the
 * subscription (at first, after a reconnect and on `resync`), from when no change can be missed,
 * so the caller loads its data again.
 */
export function useAlarmUpdates(onAlarm: (alarm: TAlarm) => void, onSubscribed: () => void): void {
  useChannel(ALARMS_CHANNEL, onSubscribed);
  useRealtimeMessage(['alarm'], (message) => onAlarm(message.alarm));
}
