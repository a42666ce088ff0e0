import { deviceAddress } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { DeviceConfigTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { selectPage, type PageRequest } from '../../platform/db/page.js';
import {
  inIds,
  placeholderOf,
  RowsStatement,
  type Column,
} from '../../platform/db/rows-statement.js';
import { BatchedWrites, DEVICES_COMING_ONLINE } from '../../platform/batched-lookup.js';

/** What a push needs to know of the device. */
export interface ConfigTarget {
  id: string;
  companyId: string;
  sn: string;
  /** `{tokenCode}:{sn}`: where its downlinks go. */
  address: string;
  series: string;
  online: boolean;
  ownerName: string | null;
}

export interface NewVersion {
  deviceId: string;
  companyId: string;
  /** The desired version the change was made from: the write fails when it is no longer so. */
  baseVersion: number;
  version: number;
  configJson: string;
  changedPaths: string[];
  changedBy: string | null;
  campaignId: string | null;
  /** The push's device log entry when it is written before the change is sent. */
  logId: string | null;
  at: number;
}

/**
 * Why a desired version failed: a code and its parameter, the device's reason for
 * `device-refused`, the seconds waited for `no-answer`.
 */
export interface Failure {
  code: 'device-refused' | 'no-answer';
  error: string | null;
}

export interface Reported {
  version: number | null;
  configJson: string | null;
  at: number;
}

/** A report to write, with the company of the device that sent it. */
interface CompanyReport {
  companyId: string;
  reported: Reported;
}

/** A report's columns in `writeReports`, named `v_` + name there. */
const REPORT_COLUMNS: Column[] = [
  ['device_id', 'varchar'],
  ['company_id', 'varchar'],
  ['version', 'bigint'],
  ['json', 'varchar'],
  ['at', 'bigint'],
];

export class DeviceConfigRepository {
  constructor(private readonly db: Db) {}

  async target(companyId: string, deviceId: string): Promise<ConfigTarget | undefined> {
    const row = await scoped(this.db, companyId)
      .selectFrom('device')
      .leftJoin('sys_user', 'sys_user.id', 'device.owner_id')
      .innerJoin('device_token', 'device_token.id', 'device.token_id')
      .select([
        'device.id',
        'device.company_id',
        'device.sn',
        'device_token.code as token_code',
        'device.series',
        'device.status',
        'sys_user.username as owner_name',
      ])
      .where('device.id', '=', deviceId)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        companyId: row.company_id,
        sn: row.sn,
        address: deviceAddress(row.token_code, row.sn),
        series: row.series,
        online: row.status === 'online',
        ownerName: row.owner_name,
      }
    );
  }

  find(companyId: string, deviceId: string): Promise<DeviceConfigTable | undefined> {
    return scoped(this.db, companyId)
      .selectFrom('device_config')
      .selectAll()
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
  }

  /**
   * Makes `version` the desired one and records it in the history, if the desired version is
   * still `baseVersion` (one conditional statement, so two editors on two nodes cannot both
   * win). False when someone else changed it first.
   */
  async saveVersion(v: NewVersion): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const desired = {
        desired_version: v.version,
        desired_json: v.configJson,
        desired_by: v.changedBy,
        desired_at: v.at,
        state: 'pending',
        error_code: null,
        error: null,
        sent_at: null,
        deadline: null,
        log_id: v.logId,
        campaign_id: v.campaignId,
      };
      const updated = await scoped(trx, v.companyId)
        .updateTable('device_config')
        .set(desired)
        .where('device_id', '=', v.deviceId)
        .where('desired_version', '=', v.baseVersion)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) {
        if (v.baseVersion !== 0) return false;
        const inserted = await scoped(trx, v.companyId)
          .insertInto('device_config', {
            device_id: v.deviceId,
            reported_version: null,
            reported_json: null,
            reported_at: null,
            ...desired,
          })
          .onConflict((oc) => oc.column('device_id').doNothing())
          .executeTakeFirst();
        if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) return false;
      }
      await scoped(trx, v.companyId)
        .insertInto('device_config_version', {
          device_id: v.deviceId,
          version: v.version,
          config_json: v.configJson,
          changed_paths: JSON.stringify(v.changedPaths),
          changed_by: v.changedBy,
          campaign_id: v.campaignId,
          create_time: v.at,
        })
        .execute();
      return true;
    });
  }

  /**
   * The desired version's push is logged as `logId`, and went out at `at` to an online device
   * that must answer by `deadline` (both null: it waits for the device to come online). Nothing
   * happens when the version changed meanwhile.
   */
  async markSent(
    companyId: string,
    deviceId: string,
    version: number,
    logId: string,
    sent: { at: number; deadline: number } | null,
  ): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('device_config')
      .set({ sent_at: sent?.at ?? null, deadline: sent?.deadline ?? null, log_id: logId })
      .where('device_id', '=', deviceId)
      .where('desired_version', '=', version)
      .execute();
  }

  /**
   * What the device says it runs; a device nobody configured yet gets its row here. Returns the
   * row as written, so that announcing it needs no second read. Written in one statement with the
   * reports of other devices that arrive together: every device reports at boot, and a storm of
   * new devices wrote (and on SQLite committed) a row each, 100 µs of the event loop apiece.
   */
  async saveReported(companyId: string, deviceId: string, r: Reported): Promise<DeviceConfigTable> {
    const row = await this.reports.put(deviceId, { companyId, reported: r });
    if (!row) throw new Error(`device ${deviceId} of company ${companyId} does not exist`);
    return row;
  }

  private readonly reports = new BatchedWrites<string, CompanyReport, DeviceConfigTable>(
    (reports) => this.writeReports(reports),
    DEVICES_COMING_ONLINE,
  );

  /**
   * Upserts the reports of devices of any company (a batch of `saveReported`), each row stamped
   * with its own company. A device that is gone, or of another company than its report names,
   * gets no row (and is left out of the answer).
   */
  private async writeReports(
    reports: Map<string, CompanyReport>,
  ): Promise<Map<string, DeviceConfigTable>> {
    const statement = new RowsStatement(placeholderOf(this.db));
    const rows = [...reports].map(([deviceId, { companyId, reported: r }]) => [
      deviceId,
      companyId,
      r.version,
      r.configJson,
      r.at,
    ]);
    const values = statement.table('v', REPORT_COLUMNS, rows);
    const { rows: written } = await this.db.executeQuery<DeviceConfigTable>(
      statement.compile(`with ${values}
      insert into device_config (device_id, company_id, desired_version, desired_json, desired_by,
        desired_at, reported_version, reported_json, reported_at, state, error_code, error,
        sent_at, deadline, log_id, campaign_id)
      select v_device_id, v_company_id, 0, null, null, null, v_version, v_json, v_at, 'none',
        null, null, null, null, null, null
      from v
      where exists (
        select 1 from device where device.id = v.v_device_id and device.company_id = v.v_company_id
      )
      on conflict (device_id) do update set
        reported_json = excluded.reported_json,
        reported_at = excluded.reported_at,
        reported_version = coalesce(excluded.reported_version, device_config.reported_version)
      where device_config.company_id = excluded.company_id
      returning *`),
    );
    return new Map(written.map((row) => [row.device_id, row]));
  }

  /** The series of these devices (of any company; the caller checks each row's company). */
  seriesAmong(deviceIds: string[]): Promise<{ id: string; company_id: string; series: string }[]> {
    return this.db
      .selectFrom('device')
      .select(['id', 'company_id', 'series'])
      .where(inIds(this.db, 'id', deviceIds))
      .execute();
  }

  /**
   * Moves the state of desired `version` from one of `from` to `to` (an answer ends the wait for
   * one); false when it was not in one of them (already moved, by this node or another, or a newer
   * version was set).
   */
  async transition(
    companyId: string,
    deviceId: string,
    version: number,
    from: string[],
    to: string,
    failure: Failure | null,
  ): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('device_config')
      .set({
        state: to,
        error_code: failure?.code ?? null,
        error: failure?.error ?? null,
        deadline: null,
      })
      .where('device_id', '=', deviceId)
      .where('desired_version', '=', version)
      .where('state', 'in', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * The rows of these devices (of any company; the caller checks each row's company): one
   * statement for the devices of a batch that came online or reported together.
   */
  findAmong(deviceIds: string[]): Promise<DeviceConfigTable[]> {
    return this.db
      .selectFrom('device_config')
      .selectAll()
      .where(inIds(this.db, 'device_id', deviceIds))
      .execute();
  }

  /** Of these devices (of any company), those with a desired version still to be sent. */
  async pendingAmong(deviceIds: string[]): Promise<string[]> {
    if (deviceIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('device_config')
      .select('device_id')
      .where('device_id', 'in', deviceIds)
      .where('state', '=', 'pending')
      .where(sql<boolean>`desired_version > coalesce(reported_version, 0)`)
      .execute();
    return rows.map((r) => r.device_id);
  }

  /**
   * Pushes of every company past their deadline, to devices still online on the connection that
   * got the push (a device that reconnected gets it again, with a new deadline).
   */
  unanswered(now: number, limit: number): Promise<DeviceConfigTable[]> {
    return this.db
      .selectFrom('device_config')
      .innerJoin('device', 'device.id', 'device_config.device_id')
      .selectAll('device_config')
      .where('device_config.state', '=', 'pending')
      .where('device_config.deadline', '<=', now)
      .where('device.status', '=', 'online')
      .where((eb) =>
        eb.or([
          eb('device.last_connect_at', 'is', null),
          eb('device.last_connect_at', '<=', eb.ref('device_config.sent_at')),
        ]),
      )
      .orderBy('device_config.deadline')
      .limit(limit)
      .execute();
  }

  history(companyId: string, deviceId: string, page: PageRequest & { order: 'asc' | 'desc' }) {
    const base = scoped(this.db, companyId)
      .selectFrom('device_config_version')
      .where('device_id', '=', deviceId);
    return selectPage(base, page, (query) => query.selectAll().orderBy('version', page.order));
  }
}
