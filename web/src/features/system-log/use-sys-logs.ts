import type { TSysLogPage, TSysLogQuery } from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';

/** The query the page sends; `_t` is added by the client. */
export type SysLogParams = Omit<TSysLogQuery, '_t'>;

export function useSysLogs(params: SysLogParams) {
  return useQuery({
    queryKey: ['sysLogs', params],
    queryFn: () => http.get<TSysLogPage>('/sys/log/list', params),
    // Paging and sorting keep the old rows on screen until the new ones arrive.
    placeholderData: keepPreviousData,
  });
}
