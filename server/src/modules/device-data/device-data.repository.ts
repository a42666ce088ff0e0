import { CompiledQuery, sql, type Transaction } from 'kysely';
import type { Db, Dialect } from '../../platform/db/database.js';
import { selectPage, type PageRequest } from '../../platform/db/page.js';
import type {
  Database,
  DeviceEventTable,
  DeviceTelemetryLatestTable,
  DeviceTelemetryTable,
} from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { readSetting, writeSetting } from '../../platform/db/settings.js';

/**
 * Event rows per INSERT statement on SQLite, which allows 32,766 bound parameters per statement (an
 * event row binds 10), and latest rows per statement (PostgreSQL binds them as one JSON document,
 * SQLite 4 per row).
 */
const LATEST_PER_INSERT = 1000;
const EVENTS_PER_INSERT = 500;
const IDS_PER_QUERY = 1000;
/**
 * SQLite: a batch of samples goes in as statements of these row counts, largest first (1,234 rows:
 * four of 250, four of 50, three of 10, four of 1), so that four statement texts, each prepared
 * once, take any batch. Built by Kysely, each batch was an insert of its own size to build, compile
 * and prepare, which cost a quarter of the write's user CPU (187,000 samples in batches of 1,700).
 */
const SAMPLE_STATEMENT_ROWS = [250, 50, 10, 1];
const SAMPLE_INSERTS = new Map(
  SAMPLE_STATEMENT_ROWS.map((rows) => [
    rows,
    `insert into device_telemetry (device_id, ts, received_at, values_json) values ${Array.from(
      { length: rows },
      () => '(?, ?, ?, ?)',
    ).join(', ')}`,
  ]),
);
/** Merge rounds of one flush's latest values before it gives up (each round re-reads the losers). */
const LATEST_ROUNDS_MAX = 5;

/** The latest value of each key and the time it was reported: `{ key: [value, ts] }`. */
export type LatestValues = Record<string, [value: number, ts: number]>;

/** A row of `device_telemetry`, its values not yet serialized. */
export type TelemetrySample = Omit<DeviceTelemetryTable, 'values_json'> & {
  values: Record<string, number>;
};

type LatestRow = Omit<DeviceTelemetryLatestTable, 'values_json'> & { values: LatestValues };

export interface DeviceEventFilter {
  deviceId: string;
  level?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export const RETENTION_SETTING = 'device.data.retention';

/**
 * Merges fresh values into stored ones: per key the value with the newer time wins (a device that
 * uploads buffered samples after a reconnect does not roll its latest values back). At most
 * `maxKeys` keys are kept, the most recent ones, so that a device inventing new keys in every
 * message cannot grow its row without bound.
 */
export function mergeLatest(
  stored: LatestValues | undefined,
  fresh: LatestValues,
  maxKeys: number,
): LatestValues {
  const merged: LatestValues = { ...stored };
  for (const [key, entry] of Object.entries(fresh)) {
    const current = merged[key];
    if (!current || current[1] <= entry[1]) merged[key] = entry;
  }
  const keys = Object.keys(merged);
  if (keys.length <= maxKeys) return merged;
  const kept = keys.sort((a, b) => (merged[b]?.[1] ?? 0) - (merged[a]?.[1] ?? 0)).slice(0, maxKeys);
  return Object.fromEntries(kept.map((k) => [k, merged[k] as [number, number]]));
}

function parseLatest(text: string): LatestValues {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === 'object' ? (parsed as LatestValues) : {};
  } catch {
    return {};
  }
}

function inIndexOrder(a: TelemetrySample, b: TelemetrySample): number {
  if (a.device_id !== b.device_id) return a.device_id < b.device_id ? -1 : 1;
  return a.ts - b.ts;
}

function chunks<T>(rows: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += size) out.push(rows.slice(i, i + size));
  return out;
}

export class DeviceDataRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  /**
   * Rows per batch of {@link writeRows}, and batches the writer may have in flight at once.
   * PostgreSQL takes a batch in one statement (one round trip), so larger batches and two at once
   * (two pooled connections) keep it busy while this process waits for its event loop: during a
   * telemetry storm every round trip waits for the loop to get through thousands of device
   * sockets. SQLite writes in-process and blocks the loop meanwhile, so its batches stay short.
   */
  get batchRows(): number {
    return this.dialect === 'postgres' ? 20_000 : 5000;
  }

  get concurrentBatches(): number {
    return this.dialect === 'postgres' ? 2 : 1;
  }

  /**
   * Samples and events at once, all or none: one commit (one fsync) for thousands of rows. On
   * PostgreSQL one statement, without BEGIN and COMMIT of their own; on SQLite a transaction.
   */
  async writeRows(samples: TelemetrySample[], events: DeviceEventTable[]): Promise<void> {
    if (this.dialect === 'postgres') {
      await this.insertRowsPostgres(samples, events);
      return;
    }
    await this.db.transaction().execute(async (trx) => {
      await this.insertSamplesSqlite(trx, samples);
      for (const rows of chunks(events, EVENTS_PER_INSERT)) {
        await trx.insertInto('device_event').values(rows).execute();
      }
    });
  }

  /**
   * Samples of deleted devices that a write in flight inserted after the device's own delete
   * (whose trigger removes the rest).
   */
  async deleteSamplesOf(deviceIds: string[]): Promise<void> {
    for (const part of chunks(deviceIds, IDS_PER_QUERY)) {
      await this.db.deleteFrom('device_telemetry').where('device_id', 'in', part).execute();
    }
  }

  /** Latest values of some devices, merged into the stored ones, in one transaction. */
  async writeLatest(
    latest: Map<string, LatestValues>,
    now: number,
    maxKeys: number,
  ): Promise<void> {
    await this.db.transaction().execute((trx) => this.storeLatest(trx, latest, now, maxKeys));
  }

  /**
   * PostgreSQL gets the rows as JSON documents (`json_to_recordset`): one parameter per table
   * instead of four or ten per row, serialized by one native JSON.stringify (binding arrays of
   * JSON texts spent more time escaping them than the rest of the write), and no limit of bound
   * parameters on the rows of a statement. A `json` value cast to text is its input text, so
   * `values_json` is what JSON.stringify made of the values. Samples and events go in one
   * statement (a data-modifying `with`), which is one transaction.
   */
  private async insertRowsPostgres(samples: TelemetrySample[], events: DeviceEventTable[]) {
    const insertSamples = sql`insert into device_telemetry (device_id, ts, received_at, values_json)
      select device_id, ts, received_at, "values"::text
      from json_to_recordset(${JSON.stringify(samples)}::json)
        as r(device_id varchar, ts bigint, received_at bigint, "values" json)`;
    const insertEvents = sql`insert into device_event
        (id, company_id, device_id, sn, ts, level, code, message, source, received_at)
      select id, company_id, device_id, sn, ts, level, code, message, source, received_at
      from json_to_recordset(${JSON.stringify(events)}::json)
        as r(id varchar, company_id varchar, device_id varchar, sn varchar, ts bigint,
          level varchar, code varchar, message varchar, source varchar, received_at bigint)`;
    if (events.length === 0) await insertSamples.execute(this.db);
    else if (samples.length === 0) await insertEvents.execute(this.db);
    else await sql`with samples as (${insertSamples}) ${insertEvents}`.execute(this.db);
  }

  /**
   * In the order of the `(device_id, ts)` index: a batch arrives in the order devices sent, each
   * row a leaf of that index far from the last, and in index order the same batches went in with
   * a fifth less system time (WAL writes) and 8 % less time in all, the sort included (187,000
   * samples of 19,000 devices in batches of 1,700).
   */
  private async insertSamplesSqlite(trx: Transaction<Database>, batch: TelemetrySample[]) {
    const samples = batch.toSorted(inIndexOrder);
    let at = 0;
    for (const [rows, text] of SAMPLE_INSERTS) {
      for (; samples.length - at >= rows; at += rows) {
        const parameters: unknown[] = [];
        for (let i = at; i < at + rows; i += 1) {
          const sample = samples[i] as TelemetrySample;
          parameters.push(
            sample.device_id,
            sample.ts,
            sample.received_at,
            JSON.stringify(sample.values),
          );
        }
        await trx.executeQuery(CompiledQuery.raw(text, parameters));
      }
    }
  }

  /**
   * Merges the batch's values into each device's stored latest values. A row is written only
   * over the version that was read (optimistic concurrency): when another node's flush wrote the
   * same device in between, that device is read and merged again, so neither loses the other's
   * keys. Devices go in id order, so that two nodes locking rows do not deadlock (a second round
   * could, with a third writer on the same devices: PostgreSQL then aborts one transaction and
   * the service writes its values once more).
   */
  private async storeLatest(
    trx: Transaction<Database>,
    latest: Map<string, LatestValues>,
    now: number,
    maxKeys: number,
  ) {
    let waiting = [...latest.keys()].sort();
    for (let round = 0; waiting.length > 0; round += 1) {
      if (round === LATEST_ROUNDS_MAX) throw new Error('latest telemetry values kept changing');
      const missed: string[] = [];
      for (const ids of chunks(waiting, LATEST_PER_INSERT)) {
        const stored = new Map((await this.readLatest(trx, ids)).map((r) => [r.device_id, r]));
        const rows: LatestRow[] = ids.map((deviceId) => {
          const current = stored.get(deviceId);
          return {
            device_id: deviceId,
            values: mergeLatest(
              current && parseLatest(current.values_json),
              latest.get(deviceId) ?? {},
              maxKeys,
            ),
            version: (current?.version ?? 0) + 1,
            update_time: now,
          };
        });
        if ((await this.upsertLatest(trx, rows)) === rows.length) continue;
        // Some rows were written by someone else since they were read: find which.
        const versions = new Map(
          (await this.readLatest(trx, ids)).map((r) => [r.device_id, r.version]),
        );
        for (const row of rows) {
          if (versions.get(row.device_id) !== row.version) missed.push(row.device_id);
        }
      }
      waiting = missed;
    }
  }

  private readLatest(trx: Transaction<Database>, ids: string[]) {
    const query = trx
      .selectFrom('device_telemetry_latest')
      .select(['device_id', 'values_json', 'version']);
    return this.dialect === 'postgres'
      ? query.where(sql<boolean>`device_id = any(${ids}::varchar[])`).execute()
      : query.where('device_id', 'in', ids).execute();
  }

  /** Writes rows over the version before theirs; says how many were written. */
  private async upsertLatest(trx: Transaction<Database>, rows: LatestRow[]): Promise<number> {
    if (this.dialect === 'postgres') {
      // One JSON parameter, as for samples (see insertSamples).
      const result = await sql`insert into device_telemetry_latest
          (device_id, values_json, version, update_time)
        select device_id, "values"::text, version, update_time
        from json_to_recordset(${JSON.stringify(rows)}::json)
          as r(device_id varchar, "values" json, version integer, update_time bigint)
        on conflict (device_id) do update set values_json = excluded.values_json,
          version = excluded.version, update_time = excluded.update_time
        where device_telemetry_latest.version = excluded.version - 1`.execute(trx);
      return Number(result.numAffectedRows ?? 0);
    }
    const result = await trx
      .insertInto('device_telemetry_latest')
      .values(
        rows.map((r) => ({
          device_id: r.device_id,
          values_json: JSON.stringify(r.values),
          version: r.version,
          update_time: r.update_time,
        })),
      )
      .onConflict((oc) =>
        oc
          .column('device_id')
          .doUpdateSet((eb) => ({
            values_json: eb.ref('excluded.values_json'),
            version: eb.ref('excluded.version'),
            update_time: eb.ref('excluded.update_time'),
          }))
          .where((eb) =>
            eb('device_telemetry_latest.version', '=', eb(eb.ref('excluded.version'), '-', 1)),
          ),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  /** Of `ids`, the devices that still exist (a batch may name a device deleted meanwhile). */
  async existingDeviceIds(ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (const part of chunks(ids, IDS_PER_QUERY)) {
      const rows = await this.db
        .selectFrom('device')
        .select('id')
        .where('id', 'in', part)
        .execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  async latest(deviceId: string): Promise<LatestValues> {
    const row = await this.db
      .selectFrom('device_telemetry_latest')
      .select('values_json')
      .where('device_id', '=', deviceId)
      .executeTakeFirst();
    return row ? parseLatest(row.values_json) : {};
  }

  /** The newest `limit` samples with from ≤ ts ≤ to, newest first. */
  history(deviceId: string, from: number, to: number, limit: number) {
    return this.db
      .selectFrom('device_telemetry')
      .select(['ts', 'values_json'])
      .where('device_id', '=', deviceId)
      .where('ts', '>=', from)
      .where('ts', '<=', to)
      .orderBy('ts', 'desc')
      .limit(limit)
      .execute();
  }

  eventPage(
    companyId: string,
    filter: DeviceEventFilter,
    page: PageRequest & { order: 'asc' | 'desc' },
  ) {
    let base = scoped(this.db, companyId)
      .selectFrom('device_event')
      .where('device_id', '=', filter.deviceId);
    if (filter.level) base = base.where('level', '=', filter.level);
    if (filter.from !== undefined) base = base.where('ts', '>=', filter.from);
    if (filter.to !== undefined) base = base.where('ts', '<=', filter.to);
    return selectPage(base, page, (query) =>
      query.selectAll().orderBy('ts', page.order).orderBy('id', page.order),
    );
  }

  /**
   * Deletes at most `limit` samples received before `cutoff` and says how many went. Retention
   * is platform-wide, so this spans every company. Rows are picked through the arrival index by
   * their physical address (SQLite rowid, PostgreSQL ctid): the table needs no key of its own.
   */
  async deleteSamplesReceivedBefore(cutoff: number, limit: number): Promise<number> {
    const result =
      this.dialect === 'postgres'
        ? await sql`delete from device_telemetry where ctid = any(array(
            select ctid from device_telemetry where received_at < ${cutoff} limit ${limit}))`.execute(
            this.db,
          )
        : await sql`delete from device_telemetry where rowid in (
            select rowid from device_telemetry where received_at < ${cutoff} limit ${limit})`.execute(
            this.db,
          );
    return Number(result.numAffectedRows ?? 0);
  }

  /** Like {@link deleteSamplesReceivedBefore}, for events (every company). */
  async deleteEventsReceivedBefore(cutoff: number, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('device_event')
      .where(
        'id',
        'in',
        this.db
          .selectFrom('device_event')
          .select('id')
          .where('received_at', '<', cutoff)
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  readRetention(): Promise<string | undefined> {
    return readSetting(this.db, RETENTION_SETTING);
  }

  writeRetention(value: string, now: number): Promise<void> {
    return writeSetting(this.db, RETENTION_SETTING, value, now);
  }
}
