import type {
  TAdminUserPage,
  TAlarmBulkResult,
  TAlarmPage,
  TAlarmRule,
  TAlarmRuleEdit,
  TAlarmRuleInput,
  TAlarmRulePage,
  TAlarmRuleQuery,
  TDepartTreeNode,
  TDevice,
  TDeviceGroupOption,
  TPage,
  TRole,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { downloadFile, http, request } from '../../api/client';
import type { AlarmParams } from './alarm-filters';

export const ALARMS_KEY = ['alarms'] as const;
export const ALARM_RULES_KEY = ['alarmRules'] as const;

export type RuleParams = Omit<TAlarmRuleQuery, '_t'>;

export const alarmListKey = (params: AlarmParams) => [...ALARMS_KEY, 'list', params] as const;

export const alarmApi = {
  list: (params: AlarmParams) => http.get<TAlarmPage>('/alarm/list', params),
  acknowledge: (ids: string[], comment: string) =>
    http.put<TAlarmBulkResult>('/alarm/acknowledge', { ids, comment }),
  clear: (ids: string[], comment: string) =>
    http.put<TAlarmBulkResult>('/alarm/clear', { ids, comment }),
  rules: (params: RuleParams) => http.get<TAlarmRulePage>('/alarm/rule/list', params),
  addRule: (body: TAlarmRuleInput) => request<TAlarmRule>('POST', '/alarm/rule/add', { body }),
  editRule: (body: TAlarmRuleEdit) => request<TAlarmRule>('PUT', '/alarm/rule/edit', { body }),
  enableRule: (id: string, enabled: boolean) =>
    request<TAlarmRule>('PUT', '/alarm/rule/enable', { body: { id, enabled } }),
  deleteRule: (id: string) => request<null>('DELETE', '/alarm/rule/delete', { params: { id } }),
};

/** Downloads the alarms of the filter (no page) as XLSX or CSV, times in the browser's zone. */
export function exportAlarms(params: AlarmParams, format: 'xlsx' | 'csv'): Promise<void> {
  const { pageNo: _pageNo, pageSize: _pageSize, ...filter } = params;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const fallbackName = `alarms-${dayjs().format('YYYYMMDD-HHmmss')}.${format}`;
  return downloadFile('/alarm/exportXls', { ...filter, format, timeZone }, fallbackName);
}

export function useAlarms(params: AlarmParams) {
  return useQuery({
    queryKey: alarmListKey(params),
    queryFn: () => alarmApi.list(params),
    placeholderData: keepPreviousData,
  });
}

export function useAlarmRules(params: RuleParams) {
  return useQuery({
    queryKey: [...ALARM_RULES_KEY, params],
    queryFn: () => alarmApi.rules(params),
    placeholderData: keepPreviousData,
  });
}

/** Rule names for the list's filter (a company keeps at most 500 rules). */
export function useRuleOptions(enabled: boolean) {
  return useQuery({
    queryKey: [...ALARM_RULES_KEY, 'options'],
    queryFn: () => alarmApi.rules({ pageNo: 1, pageSize: 500, order: 'asc' }),
    select: (page) => page.records.map((rule) => ({ value: rule.id, label: rule.name })),
    enabled,
  });
}

export function useGroupOptions(enabled = true) {
  return useQuery({
    queryKey: ['deviceGroups', 'options'],
    queryFn: () => http.get<TDeviceGroupOption[]>('/device/group/queryall'),
    select: (groups) => groups.map((g) => ({ value: g.id, label: g.name })),
    enabled,
  });
}

/** Devices whose SN or name contains `text`, for the rule's one-device scope. */
export function searchDevices(text: string): Promise<TDevice[]> {
  return http
    .get<TPage<TDevice>>('/device/device/list', {
      pageNo: 1,
      pageSize: 20,
      sn: text.trim() || undefined,
      column: 'sn',
      order: 'asc',
    })
    .then((page) => page.records);
}

/**
 * Who a rule may notify. Users and roles are read through the account screens' lists, which need
 * `account:user:list`: without it the selects stay empty (the form says so) and the rule can still
 * notify departments, whose tree any signed-in user may read.
 */
export function useNotifyTargets(enabled: boolean, english: boolean) {
  const users = useQuery({
    queryKey: ['users', 'alarm-options'],
    queryFn: () =>
      http.get<TAdminUserPage>('/sys/user/list', { pageSize: 200, status: 1 }, { silent: true }),
    select: (page) =>
      page.records.map((u) => ({ value: u.id, label: `${u.realname} (${u.username})` })),
    enabled,
    retry: false,
  });
  const roles = useQuery({
    queryKey: ['roles', 'alarm-options'],
    queryFn: () => http.get<TRole[]>('/sys/role/queryall', undefined, { silent: true }),
    select: (list) =>
      list.map((r) => ({ value: r.id, label: (english && r.roleNameEn) || r.roleName })),
    enabled,
    retry: false,
  });
  const departs = useQuery({
    queryKey: ['departTree'],
    queryFn: () => http.get<TDepartTreeNode[]>('/sys/sysDepart/queryTreeList'),
    enabled,
  });
  return { users, roles, departs, limited: users.isError || roles.isError };
}
