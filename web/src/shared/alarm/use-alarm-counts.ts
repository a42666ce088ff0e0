import type { TAlarmCounts } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';

/** One cache entry for the open alarms by severity: the header, the dashboard and the list share it. */
export const ALARM_COUNTS_KEY = ['alarmCounts'] as const;

/**
 * How long loaded counts are shown as they are to a component that mounts: the header's alarm
 * count keeps the entry live for every page (it reloads it when the `alarms` channel reports a
 * change or a resubscription), so the dashboard mounting after sign-in takes the counts the header
 * has just loaded instead of asking again.
 */
const ALARM_COUNTS_FRESH_MS = 10_000;

/** Open and unacknowledged alarms by severity (`alarm:list`); nothing is asked when disabled. */
export function useAlarmCounts(enabled = true) {
  return useQuery({
    queryKey: ALARM_COUNTS_KEY,
    queryFn: () => http.get<TAlarmCounts>('/alarm/counts', undefined, { silent: true }),
    enabled,
    staleTime: ALARM_COUNTS_FRESH_MS,
  });
}
