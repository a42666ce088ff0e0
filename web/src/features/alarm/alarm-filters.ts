import type { TAlarm, TAlarmSeverity, TAlarmState, TPage } from '@blrms/contracts';
import { ALARM_SEVERITIES, ALARM_STATES } from '@blrms/contracts';

/**
 * What the alarm list asks `/alarm/list` for (ZAlarmQuery as the query string carries it: the
 * severities and states as comma lists).
 */
export type AlarmParams = {
  pageNo: number;
  pageSize: number;
  order: 'asc' | 'desc';
  severity?: string;
  state?: string;
  ruleId?: string;
  deviceId?: string;
  groupId?: string;
  sn?: string;
  timeFrom?: string;
  timeTo?: string;
};

/** The list's filter form; the time range (ISO strings) is sent as timeFrom/timeTo. */
export type AlarmSearch = {
  severity?: TAlarmSeverity[];
  state?: TAlarmState[];
  ruleId?: string;
  groupId?: string;
  sn?: string;
  lastTime?: [string, string];
};

export type AlarmPage = Pick<TPage<TAlarm>, 'records' | 'total'>;

export const ALARM_PAGE: Pick<AlarmParams, 'pageNo' | 'pageSize' | 'order'> = {
  pageNo: 1,
  pageSize: 10,
  order: 'desc',
};

const list = (values: readonly string[] | undefined) =>
  values && values.length > 0 ? values.join(',') : undefined;

/** The query params of a submitted filter form (the page and its size are the caller's). */
export function filterOf(search: AlarmSearch): Omit<AlarmParams, 'pageNo' | 'pageSize' | 'order'> {
  return {
    severity: list(search.severity),
    state: list(search.state),
    ruleId: search.ruleId || undefined,
    groupId: search.groupId || undefined,
    sn: search.sn?.trim() || undefined,
    timeFrom: search.lastTime?.[0],
    timeTo: search.lastTime?.[1],
  };
}

function pick<T extends string>(value: string | null, allowed: readonly T[]): T[] | undefined {
  const picked = (value ?? '').split(',').filter((v): v is T => allowed.includes(v as T));
  return picked.length > 0 ? picked : undefined;
}

/**
 * The filter a link into the list carries (`/alarm/list?severity=critical&state=active`, from the
 * header and the dashboard); values this console does not know are left out.
 */
export function searchFromUrl(query: URLSearchParams): AlarmSearch {
  return {
    severity: pick(query.get('severity'), ALARM_SEVERITIES),
    state: pick(query.get('state'), ALARM_STATES),
    ruleId: query.get('ruleId') || undefined,
    groupId: query.get('groupId') || undefined,
    sn: query.get('sn') || undefined,
  };
}

/** The link to the list filtered to these severities and states. */
export function alarmListLink(severity: TAlarmSeverity, states: readonly TAlarmState[]): string {
  return `/alarm/list?severity=${severity}&state=${states.join(',')}`;
}

/** Whether an alarm, as it is now, belongs in a list with these params. */
export function alarmMatches(alarm: TAlarm, params: AlarmParams): boolean {
  const inList = (value: string, listed: string | undefined) =>
    listed === undefined || listed.split(',').includes(value);
  const text = params.sn?.toLowerCase();
  return (
    inList(alarm.severity, params.severity) &&
    inList(alarm.state, params.state) &&
    (params.ruleId === undefined || alarm.ruleId === params.ruleId) &&
    (params.deviceId === undefined || alarm.deviceId === params.deviceId) &&
    (params.groupId === undefined || alarm.groupId === params.groupId) &&
    (text === undefined ||
      alarm.sn.toLowerCase().includes(text) ||
      alarm.deviceName.toLowerCase().includes(text)) &&
    (params.timeFrom === undefined || Date.parse(alarm.lastTime) >= Date.parse(params.timeFrom)) &&
    (params.timeTo === undefined || Date.parse(alarm.lastTime) < Date.parse(params.timeTo))
  );
}

const STATE_RANK: Record<TAlarmState, number> = { active: 0, acknowledged: 1, cleared: 2 };

/**
 * A live `alarm` message applied to the page on screen: a shown row is replaced in place; the
 * page must be loaded again (`reload`) when the alarm joins the filter (a new alarm) or leaves it
 * (acknowledged under a filter of active ones). States only move forward, so a message older than
 * the row (a state behind it) is ignored.
 */
export function applyAlarm(
  params: AlarmParams,
  page: AlarmPage,
  alarm: TAlarm,
): { page: AlarmPage; reload: boolean } {
  const index = page.records.findIndex((row) => row.id === alarm.id);
  const matches = alarmMatches(alarm, params);
  if (index === -1) return { page, reload: matches };
  const shown = page.records[index]!;
  if (STATE_RANK[alarm.state] < STATE_RANK[shown.state]) return { page, reload: false };
  if (!matches) return { page, reload: true };
  const records = page.records.slice();
  records[index] = alarm;
  return { page: { ...page, records }, reload: false };
}
