import type {
  TCampaign,
  TCampaignCreateInput,
  TCampaignDevice,
  TCampaignDeviceQuery,
  TCampaignPreview,
  TCampaignProgress,
  TCampaignQuery,
  TDevice,
  TDeviceGroupOption,
  TDeviceTagCount,
  TDeviceSeries,
  TFirmware,
  TPage,
} from '@blrms/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';
import { useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { pageWithProgress, withProgress } from './campaign-progress';

const BASE = '/campaign';
/** Lists, single campaigns and their device pages share this prefix. */
const KEY = ['campaigns'] as const;

export type CampaignParams = Omit<TCampaignQuery, '_t'>;
export type CampaignPage = TPage<TCampaign>;
export type CampaignDeviceParams = Omit<TCampaignDeviceQuery, '_t'>;
export type CampaignDevicePage = TPage<TCampaignDevice>;
/** What POST preview takes (ZCampaignPreviewBody): the parts of a campaign that pick devices. */
export type CampaignPreviewBody = Pick<
  TCampaignCreateInput,
  'kind' | 'firmwareId' | 'series' | 'target'
>;
export type CampaignAction = 'pause' | 'resume' | 'cancel' | 'retry' | 'approve';

export const campaignListKey = (params: CampaignParams) => [...KEY, 'list', params] as const;
export const campaignKey = (id: string) => [...KEY, 'one', id] as const;
export const campaignDevicesKey = (params: CampaignDeviceParams) =>
  [...KEY, 'devices', params] as const;

/**
 * Applies a live progress message to every cached page and copy of its campaign, so that a page
 * opened later (the list after the detail) starts from the latest counts, not the ones it had
 * when it was last shown.
 */
export function applyProgress(client: QueryClient, progress: TCampaignProgress): void {
  client.setQueriesData<CampaignPage>({ queryKey: [...KEY, 'list'] }, (page) =>
    page ? pageWithProgress(page, [progress]) : page,
  );
  client.setQueryData<TCampaign>(campaignKey(progress.id), (campaign) =>
    campaign ? withProgress(campaign, progress) : campaign,
  );
}

export function useCampaigns(params: CampaignParams) {
  return useQuery({
    queryKey: campaignListKey(params),
    queryFn: () => http.get<CampaignPage>(`${BASE}/list`, params),
    placeholderData: keepPreviousData,
  });
}

export function useCampaign(id: string) {
  return useQuery({
    queryKey: campaignKey(id),
    queryFn: () => http.get<TCampaign>(`${BASE}/detail`, { id }),
    enabled: id !== '',
  });
}

export function useCampaignDevices(params: CampaignDeviceParams) {
  return useQuery({
    queryKey: campaignDevicesKey(params),
    queryFn: () => http.get<CampaignDevicePage>(`${BASE}/devices`, params),
    placeholderData: keepPreviousData,
  });
}

/** The form shows the server's objections on its fields, so the HTTP client stays quiet. */
export function useCreateCampaign() {
  return useEntityMutation({
    mutationFn: (body: TCampaignCreateInput) =>
      http.post<TCampaign>(`${BASE}/add`, body, { silent: true }),
    invalidates: [KEY],
  });
}

export function previewCampaign(body: CampaignPreviewBody): Promise<TCampaignPreview> {
  return http.post<TCampaignPreview>(`${BASE}/preview`, body, { silent: true });
}

/** Pause, resume, cancel or retry the failed devices; the campaign and its devices reload. */
export function useCampaignAction() {
  return useEntityMutation({
    mutationFn: ({ action, id }: { action: CampaignAction; id: string }) =>
      http.post<TCampaign>(`${BASE}/${action}`, { id }),
    invalidates: [KEY],
  });
}

/** Devices whose SN contains `sn`, of one series when given, for the target's device choice. */
export function searchDevices(sn: string, series?: TDeviceSeries): Promise<TDevice[]> {
  return http
    .get<TPage<TDevice>>('/device/device/list', {
      pageNo: 1,
      pageSize: 20,
      sn: sn.trim() || undefined,
      series,
      column: 'sn',
      order: 'asc',
    })
    .then((page) => page.records);
}

/** The firmware library (newest first, up to the page limit), to choose what to install. */
export function useFirmwareChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['firmware', 'options'],
    queryFn: () =>
      http
        .get<TPage<TFirmware>>('/firmware/list', { pageNo: 1, pageSize: 1000 })
        .then((page) => page.records),
    enabled,
  });
}

/** The company's groups, to target one. */
/** The company's device tags (most used first), for tag targets. */
export function useTagChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['devices', 'tags'],
    queryFn: () => http.get<TDeviceTagCount[]>('/device/tags'),
    enabled,
  });
}

export function useGroupChoices(enabled: boolean) {
  return useQuery({
    queryKey: ['deviceGroups', 'options'],
    queryFn: () => http.get<TDeviceGroupOption[]>('/device/group/queryall'),
    enabled,
  });
}
