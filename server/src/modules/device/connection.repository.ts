import type { TDeviceConnectionQuery } from '@blrms/contracts';
import { sql } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { selectPage } from '../../platform/db/page.js';
import { scoped } from '../../platform/db/scoped.js';
import { readSetting } from '../../platform/db/settings.js';
import { RETENTION_SETTING } from '../device-data/device-data.repository.js';

/** The connection history the gateway writes (`device_session`), as the console reads it. */
export class ConnectionRepository {
  constructor(private readonly db: Db) {}

  /** One page of a device's connections, newest first (or oldest first). */
  page(companyId: string, query: TDeviceConnectionQuery) {
    const base = scoped(this.db, companyId)
      .selectFrom('device_session')
      .where('device_id', '=', query.deviceId);
    return selectPage(base, query, (q) =>
      q
        .select(['id', 'connected_at', 'disconnected_at', 'reason', 'ip', 'node_id'])
        .orderBy('connected_at', query.order)
        .orderBy('id', query.order),
    );
  }

  /**
   * Milliseconds a device was connected within [from, to], and its connections there: each
   * connection clipped to the window (an open one lasts until `to`), summed by the database.
   */
  async connectedWithin(companyId: string, deviceId: string, from: number, to: number) {
    const end = sql<number>`case when disconnected_at is null or disconnected_at > ${to}
      then ${to} else disconnected_at end`;
    const start = sql<number>`case when connected_at < ${from} then ${from} else connected_at end`;
    const row = await scoped(this.db, companyId)
      .selectFrom('device_session')
      .where('device_id', '=', deviceId)
      .where('connected_at', '<', to)
      .where((eb) => eb.or([eb('disconnected_at', 'is', null), eb('disconnected_at', '>', from)]))
      .select([
        sql<number | string | null>`sum(${end} - ${start})`.as('online_ms'),
        sql<number | string>`count(*)`.as('connections'),
      ])
      .executeTakeFirst();
    return { onlineMs: Number(row?.online_ms ?? 0), connections: Number(row?.connections ?? 0) };
  }

  /**
   * Deletes at most `limit` connections that ended before `cutoff` (every company, as retention
   * is platform-wide); open ones stay however old.
   */
  async deleteEndedBefore(cutoff: number, limit: number): Promise<number> {
    const result = await this.db
      .deleteFrom('device_session')
      .where(
        'id',
        'in',
        this.db
          .selectFrom('device_session')
          .select('id')
          .where('disconnected_at', '<', cutoff)
          .limit(limit),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The retention setting of telemetry and events, which the history follows. */
  readRetention(): Promise<string | undefined> {
    return readSetting(this.db, RETENTION_SETTING);
  }
}
