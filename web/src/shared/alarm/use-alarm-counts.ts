import type { TAlarmCounts } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';

/** One cache entry for the open alarms by severity: the header, the dashboard and the list share it. */
export const ALARM_COUNTS_KEY = ['alarmCounts'] as const;

/** Open and unacknowledged alarms by severity (`alarm:list`); nothing is asked when disabled. */
export function useAlarmCounts(enabled = true) {
  return useQuery({
    queryKey: ALARM_COUNTS_KEY,
    queryFn: () => http.get<TAlarmCounts>('/alarm/counts', undefined, { silent: true }),
    enabled,
  });
}
