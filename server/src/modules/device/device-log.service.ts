import {
  DEVICE_LOG_CONTENT_MAX_BYTES,
  type TDeviceLog,
  type TDeviceLogQuery,
  type TDeviceLogState,
} from '@blrms/contracts';
import { requireAccess } from '../../platform/auth/access.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import type { DeviceLogTable } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import type { DeviceLogRepository } from './device-log.repository.js';
import { iso, pageResult, type Page } from '../../platform/http/paging.js';

/** Subjects the server writes, stored as codes and shown in the reader's language. */
export const DEVICE_LOG_SUBJECTS = {
  'device.add': 'deviceLogSubjectAdd',
  'device.edit': 'deviceLogSubjectEdit',
  'device.delete': 'deviceLogSubjectDelete',
  'device.import': 'deviceLogSubjectImport',
  'device.move': 'deviceLogSubjectMove',
  'device.tags': 'deviceLogSubjectTags',
  'config.push': 'deviceLogSubjectConfigPush',
  'command.send': 'deviceLogSubjectCommandSend',
  'ota.notify': 'deviceLogSubjectOtaNotify',
  'scheduled-job.run': 'deviceLogSubjectScheduledJob',
  'alarm.raise': 'deviceLogSubjectAlarmRaise',
  'alarm.ack': 'deviceLogSubjectAlarmAck',
  'alarm.clear': 'deviceLogSubjectAlarmClear',
} as const satisfies Record<string, MessageKey>;

export type DeviceLogSubject = keyof typeof DEVICE_LOG_SUBJECTS;

/** One entry of the device log, as other modules (MQTT events, downlinks, OTA) write it. */
export interface DeviceLogEntry {
  companyId: string;
  deviceId: string | null;
  sn: string | null;
  /** Topic or API path of the action. */
  requestUrl: string;
  /** Username who acted; null for the platform or the device itself. */
  sourceUser: string | null;
  /** Username of the device owner. */
  targetUser: string | null;
  /** A code of DEVICE_LOG_SUBJECTS or a free text of at most 128 characters. */
  subject: string;
  /** At most 64 KiB (UTF-8); a string or a value stored as JSON. */
  content: unknown;
  sourceIp: string | null;
  state: TDeviceLogState;
  /** Defaults to now. */
  logTime?: number;
}

function subjectOf(stored: string, lang: Lang): string {
  const key = (DEVICE_LOG_SUBJECTS as Record<string, MessageKey>)[stored];
  return key ? message(lang, key) : stored;
}

function toDeviceLog(row: DeviceLogTable, lang: Lang): TDeviceLog {
  return {
    id: row.id,
    deviceId: row.device_id,
    sn: row.sn,
    requestUrl: row.request_url,
    sourceUser: row.source_user,
    targetUser: row.target_user,
    subject: subjectOf(row.subject, lang),
    content: row.content,
    sourceIp: row.source_ip,
    logTime: iso(row.log_time),
    state: row.state as TDeviceLogState,
  };
}

const LANGS: Lang[] = ['zh-CN', 'en-US'];

/** Content as stored: refused over 64 KiB rather than cut. */
function contentText(content: unknown): string {
  const text = typeof content === 'string' ? content : JSON.stringify(content);
  const size = Buffer.byteLength(text, 'utf8');
  if (size > DEVICE_LOG_CONTENT_MAX_BYTES) {
    throw new AppError('deviceLogContentTooLarge', 413, { size });
  }
  return text;
}

/**
 * The device log: written by the server only (device actions, refused connections, downlinks of
 * configuration, commands and OTA), read by users with `devicelog:list`. A downlink's entry is
 * written when it is sent and its state follows the device's answer. Content over 64 KiB is refused, never cut.
 */
export class DeviceLogService {
  constructor(
    private readonly repository: DeviceLogRepository,
    private readonly clock: Clock,
  ) {}

  /** Writes one entry; returns its id, for a downlink whose outcome sets its state later. */
  async write(entry: DeviceLogEntry): Promise<string> {
    const row = this.row(entry, this.clock());
    await this.repository.insert([row]);
    return row.id;
  }

  /** Writes the entries in one transaction; returns their ids, in order. */
  async writeMany(entries: DeviceLogEntry[]): Promise<string[]> {
    const now = this.clock();
    const rows = entries.map((e) => this.row(e, now));
    await this.repository.insert(rows);
    return rows.map((r) => r.id);
  }

  private row(e: DeviceLogEntry, now: number): DeviceLogTable {
    return {
      id: newId(),
      company_id: e.companyId,
      device_id: e.deviceId,
      sn: e.sn,
      request_url: e.requestUrl.slice(0, 1000),
      source_user: e.sourceUser,
      target_user: e.targetUser,
      subject: e.subject.slice(0, 128),
      content: contentText(e.content),
      source_ip: e.sourceIp,
      log_time: e.logTime ?? now,
      state: e.state,
    };
  }

  /**
   * The outcome of a downlink (acked, succeeded, failed, timeout), with what the device answered
   * when `content` is given. Entries are never edited otherwise.
   */
  async setState(id: string, state: TDeviceLogState, content?: unknown): Promise<void> {
    await this.repository.setState(
      id,
      state,
      content === undefined ? undefined : contentText(content),
    );
  }

  async list(scope: Scope, query: TDeviceLogQuery, lang: Lang): Promise<Page<TDeviceLog>> {
    const subject = query.subject?.toLowerCase();
    const { records, total } = await this.repository.page(
      scope.companyId,
      {
        deviceId: query.deviceId,
        sn: query.sn,
        user: query.user,
        subject: subject
          ? {
              text: query.subject ?? '',
              // The console shows subjects translated, so a search for the shown text must find
              // the stored code.
              codes: Object.entries(DEVICE_LOG_SUBJECTS)
                .filter(([, key]) =>
                  LANGS.some((l) => message(l, key).toLowerCase().includes(subject)),
                )
                .map(([code]) => code),
            }
          : undefined,
        state: query.state,
        from: query.logTime_begin ? Date.parse(query.logTime_begin) : undefined,
        to: query.logTime_end ? Date.parse(query.logTime_end) : undefined,
      },
      query,
    );
    return pageResult(
      records.map((r) => toDeviceLog(r, lang)),
      total,
      query,
    );
  }

  async get(scope: Scope, id: string, lang: Lang): Promise<TDeviceLog> {
    const row = await requireAccess(this.repository.findById(scope.companyId, id));
    return toDeviceLog(row, lang);
  }

  async latest(scope: Scope, limit: number, lang: Lang): Promise<TDeviceLog[]> {
    const rows = await this.repository.latest(scope.companyId, limit);
    return rows.map((r) => toDeviceLog(r, lang));
  }
}
