import type { TDeviceLogQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { DeviceLogTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import { insertRows, placeholderOf, type ColumnType } from '../../platform/db/rows-statement.js';

const SORT_COLUMNS = { logTime: 'log_time', subject: 'subject', state: 'state' } as const;
const INSERT_BATCH = 1000;

const LOG_COLUMNS: [keyof DeviceLogTable & string, ColumnType][] = [
  ['id', 'varchar'],
  ['company_id', 'varchar'],
  ['device_id', 'varchar'],
  ['sn', 'varchar'],
  ['request_url', 'varchar'],
  ['source_user', 'varchar'],
  ['target_user', 'varchar'],
  ['subject', 'varchar'],
  ['content', 'varchar'],
  ['source_ip', 'varchar'],
  ['log_time', 'bigint'],
  ['state', 'varchar'],
];

export interface DeviceLogFilter {
  deviceId?: string | undefined;
  sn?: string | undefined;
  user?: string | undefined;
  /** Matches the stored subject by substring, or any of these subject codes exactly. */
  subject?: { text: string; codes: string[] } | undefined;
  state?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
}

export class DeviceLogRepository {
  constructor(private readonly db: Db) {}

  /**
   * One transaction: one commit for an import's thousands of entries. Each statement is a table
   * of rows (`insertRows`), the same text whatever its size: a storm of auto-registered
   * devices logs them 500 at a time, and as Kysely's multi-row insert each batch was 6,000
   * parameters to build and for the database to parse.
   */
  async insert(rows: DeviceLogTable[]): Promise<void> {
    const placeholder = placeholderOf(this.db);
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += INSERT_BATCH) {
        await trx.executeQuery(
          insertRows(placeholder, 'device_log', LOG_COLUMNS, rows.slice(i, i + INSERT_BATCH)),
        );
      }
    });
  }

  /** By id alone: the id comes from the server's own write, never from a request. */
  async setState(id: string, state: string, content: string | undefined): Promise<void> {
    await this.db
      .updateTable('device_log')
      .set(content === undefined ? { state } : { state, content })
      .where('id', '=', id)
      .execute();
  }

  private filtered(companyId: string, filter: DeviceLogFilter) {
    let query = scoped(this.db, companyId).selectFrom('device_log');
    if (filter.deviceId) query = query.where('device_id', '=', filter.deviceId);
    if (filter.sn) query = query.where(sql<boolean>`sn like ${containing(filter.sn)} escape '\\'`);
    if (filter.user) {
      const pattern = containing(filter.user);
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`${eb.ref('source_user')} like ${pattern} escape '\\'`,
          sql<boolean>`${eb.ref('target_user')} like ${pattern} escape '\\'`,
        ]),
      );
    }
    const subject = filter.subject;
    if (subject) {
      query = query.where((eb) =>
        eb.or([
          sql<boolean>`${eb.ref('subject')} like ${containing(subject.text)} escape '\\'`,
          ...(subject.codes.length > 0 ? [eb('subject', 'in', subject.codes)] : []),
        ]),
      );
    }
    if (filter.state) query = query.where('state', '=', filter.state);
    if (filter.from !== undefined) query = query.where('log_time', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('log_time', '<=', filter.to);
    return query;
  }

  async page(
    companyId: string,
    filter: DeviceLogFilter,
    page: Pick<TDeviceLogQuery, 'pageNo' | 'pageSize' | 'column' | 'order'>,
  ) {
    const base = this.filtered(companyId, filter);
    return selectPage(base, page, (query) =>
      query.selectAll().orderBy(SORT_COLUMNS[page.column], page.order).orderBy('id', page.order),
    );
  }

  findById(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('device_log')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** The latest logs of the company. */
  latest(companyId: string, limit: number) {
    return scoped(this.db, companyId)
      .selectFrom('device_log')
      .selectAll()
      .orderBy('log_time', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
