import type {
  TAdminUserPage,
  TCampaign,
  TDeviceGroupOption,
  TPage,
  TPlatformJob,
  TPlatformJobRun,
  TQuartzCronPreview,
  TQuartzJob,
  TQuartzJobEdit,
  TQuartzJobInput,
  TQuartzJobListQuery,
  TQuartzJobPage,
  TQuartzJobRun,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { http, request } from '../../api/client';
import { ApiError } from '../../api/errors';

export type QuartzJobParams = Omit<TQuartzJobListQuery, '_t'>;

export const QUARTZ_KEY = 'quartzJobs';
export const PLATFORM_KEY = 'platformJobs';

export const quartzApi = {
  list: (params: QuartzJobParams) => http.get<TQuartzJobPage>('/sys/quartzJob/list', params),
  add: (body: TQuartzJobInput) => request<TQuartzJob>('POST', '/sys/quartzJob/add', { body }),
  edit: (body: TQuartzJobEdit) => request<TQuartzJob>('PUT', '/sys/quartzJob/edit', { body }),
  delete: (id: string) => request<null>('DELETE', '/sys/quartzJob/delete', { params: { id } }),
  pause: (id: string) => request<TQuartzJob>('POST', '/sys/quartzJob/pause', { body: { id } }),
  resume: (id: string) => request<TQuartzJob>('POST', '/sys/quartzJob/resume', { body: { id } }),
  execute: (id: string) =>
    request<TQuartzJobRun>('POST', '/sys/quartzJob/execute', { body: { id } }),
  logs: (id: string) => http.get<TQuartzJobRun[]>('/sys/quartzJob/logs', { id }),
  platformList: () =>
    http.get<TPlatformJob[]>('/sys/quartzJob/platform/list', undefined, { silent: true }),
  platformLogs: (name: string) =>
    http.get<TPlatformJobRun[]>('/sys/quartzJob/platform/logs', { name }),
  platformPause: (name: string) =>
    request<null>('POST', '/sys/quartzJob/platform/pause', { body: { name } }),
  platformResume: (name: string) =>
    request<null>('POST', '/sys/quartzJob/platform/resume', { body: { name } }),
  platformExecute: (name: string) =>
    request<{ outcome: 'ok' | 'failed' | 'not-leader' }>(
      'POST',
      '/sys/quartzJob/platform/execute',
      { body: { name } },
    ),
};

export function useQuartzJobs(params: QuartzJobParams) {
  return useQuery({
    queryKey: [QUARTZ_KEY, params],
    queryFn: () => quartzApi.list(params),
    placeholderData: keepPreviousData,
  });
}

/** The platform's jobs; null for anyone but a platform administrator (the server answers 403). */
export function usePlatformJobs() {
  return useQuery({
    queryKey: [PLATFORM_KEY],
    queryFn: async () => {
      try {
        return await quartzApi.platformList();
      } catch (e) {
        if (e instanceof ApiError && e.status === 403) return null;
        throw e;
      }
    },
  });
}

/** The next five runs of what is typed, asked 400 ms after the typing stops. */
export function useCronPreview(cron: string | undefined, timeZone: string | undefined) {
  const [settled, setSettled] = useState({ cron, timeZone });
  useEffect(() => {
    const timer = setTimeout(() => setSettled({ cron, timeZone }), 400);
    return () => clearTimeout(timer);
  }, [cron, timeZone]);
  const ready = Boolean(settled.cron?.trim() && settled.timeZone);
  return useQuery<TQuartzCronPreview, ApiError>({
    queryKey: [QUARTZ_KEY, 'preview', settled.cron, settled.timeZone],
    queryFn: () =>
      http.get<TQuartzCronPreview>(
        '/sys/quartzJob/cronPreview',
        { cron: settled.cron?.trim(), timeZone: settled.timeZone },
        { silent: true },
      ),
    enabled: ready,
    retry: false,
  });
}

export function useJobRuns(kind: 'operator' | 'platform', key: string) {
  return useQuery<(TQuartzJobRun | TPlatformJobRun)[]>({
    queryKey: [kind === 'operator' ? QUARTZ_KEY : PLATFORM_KEY, 'runs', key],
    queryFn: async () =>
      kind === 'operator' ? await quartzApi.logs(key) : await quartzApi.platformLogs(key),
  });
}

// What the form's parameter fields offer: the company's groups, campaigns and users.

export function useGroupOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['deviceGroups', 'options'],
    queryFn: () => http.get<TDeviceGroupOption[]>('/device/group/queryall'),
    enabled,
  });
}

export function useCampaignOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['campaigns', 'quartz-options'],
    queryFn: () => http.get<TPage<TCampaign>>('/campaign/list', { pageSize: 100, order: 'desc' }),
    enabled,
  });
}

export function useUserOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'quartz-options'],
    queryFn: () => http.get<TAdminUserPage>('/sys/user/list', { pageSize: 200, status: 1 }),
    enabled,
  });
}
