import type { TFirmwareQuery } from '@blrms/contracts';
import { sql, type ExpressionBuilder } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { selectPage } from '../../platform/db/page.js';
import type { Database, FirmwareTable } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { StorageRepository } from '../../platform/files/storage.repository.js';
import { readSetting, sharedSecret, writeSetting } from '../../platform/db/settings.js';

/** Campaign states in which a campaign still installs its firmware. */
const UNFINISHED_CAMPAIGN_STATES = ['scheduled', 'running', 'paused'];

/** Whether an unfinished campaign installs the firmware row of the outer query. */
const inUse = (eb: ExpressionBuilder<Database, 'firmware'>) =>
  eb
    .exists(
      eb
        .selectFrom('campaign')
        .select(sql`1`.as('one'))
        .whereRef('campaign.firmware_id', '=', 'firmware.id')
        .where('campaign.state', 'in', UNFINISHED_CAMPAIGN_STATES),
    )
    .as('in_use');

export type FirmwareRow = FirmwareTable & { in_use: unknown };

export class FirmwareRepository {
  constructor(private readonly db: Db) {}

  async page(companyId: string, query: TFirmwareQuery) {
    let base = scoped(this.db, companyId).selectFrom('firmware');
    if (query.series) base = base.where('series', '=', query.series);
    if (query.version)
      base = base.where(sql<boolean>`version like ${containing(query.version)} escape '\\'`);
    return selectPage(base, query, (q) =>
      q
        .selectAll('firmware')
        .select(inUse)
        .orderBy('firmware.create_time', query.order)
        .orderBy('firmware.id', query.order),
    );
  }

  find(companyId: string, id: string): Promise<FirmwareRow | undefined> {
    return scoped(this.db, companyId)
      .selectFrom('firmware')
      .selectAll('firmware')
      .select(inUse)
      .where('firmware.id', '=', id)
      .executeTakeFirst();
  }

  /** Any company's firmware: downloads are authorised by their signature, not by a session. */
  findForDownload(id: string) {
    return this.db
      .selectFrom('firmware')
      .select(['id', 'file_name', 'size', 'sha256'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  async versionExists(companyId: string, series: string, version: string): Promise<boolean> {
    const row = await scoped(this.db, companyId)
      .selectFrom('firmware')
      .select('id')
      .where('series', '=', series)
      .where('version', '=', version)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(row: FirmwareTable): Promise<void> {
    await scoped(this.db, row.company_id).insertInto('firmware', row).execute();
  }

  async updateReleaseNotes(companyId: string, id: string, notes: string | null): Promise<boolean> {
    const result = await scoped(this.db, companyId)
      .updateTable('firmware')
      .set({ release_notes: notes })
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /**
   * Deletes the row unless an unfinished campaign installs it. `beforeDelete` (modules that refer
   * to the firmware release their references) runs in the same transaction, after the check.
   */
  async delete(
    companyId: string,
    id: string,
    beforeDelete: (trx: Db) => Promise<void>,
  ): Promise<'deleted' | 'in-use' | 'not-found'> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        const row = await scoped(trx, companyId)
          .selectFrom('firmware')
          .select('firmware.id')
          .select(inUse)
          .where('firmware.id', '=', id)
          .executeTakeFirst();
        if (!row) return 'not-found';
        if (truthy(row.in_use)) return 'in-use';
        await beforeDelete(trx);
        await scoped(trx, companyId).deleteFrom('firmware').where('id', '=', id).execute();
        return 'deleted';
      });
    } catch (error) {
      // A campaign that started between the check and the delete still holds the key.
      if (isForeignKeyViolation(error)) return 'in-use';
      throw error;
    }
  }

  /**
   * Bytes of every file the company stores (firmware, the file library: one quota), and its own
   * quota (null: the default).
   */
  storage(companyId: string): Promise<{ stored: number; quota: number | null }> {
    return new StorageRepository(this.db).usage(companyId);
  }

  readSetting(key: string): Promise<string | undefined> {
    return readSetting(this.db, key);
  }

  writeSetting(key: string, value: string, now: number): Promise<void> {
    return writeSetting(this.db, key, value, now);
  }

  sharedSecret(key: string, now: number): Promise<string> {
    return sharedSecret(this.db, key, now);
  }
}

function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** `exists(...)` is 0/1 on SQLite and a boolean on PostgreSQL. */
export function truthy(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}
