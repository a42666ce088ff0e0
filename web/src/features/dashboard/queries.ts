import type { TDeviceSummary, TLogInfo, TSysLog, TVisitInfo } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';

export function useLogInfo() {
  return useQuery({
    queryKey: ['dashboard', 'loginfo'],
    queryFn: () => http.get<TLogInfo>('/sys/loginfo'),
  });
}

export function useVisitInfo() {
  return useQuery({
    queryKey: ['dashboard', 'visitInfo'],
    queryFn: () => http.get<TVisitInfo>('/sys/visitInfo'),
  });
}

export function useLastLogins() {
  return useQuery({
    queryKey: ['dashboard', 'lastLogins'],
    queryFn: () => http.get<TSysLog[]>('/sys/user/lastLogins'),
  });
}

export function useDeviceSummary() {
  return useQuery({
    queryKey: ['deviceSummary'],
    queryFn: () => http.get<TDeviceSummary>('/device/device/summary'),
  });
}
