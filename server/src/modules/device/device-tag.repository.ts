import type { Db } from '../../platform/db/database.js';
import { scoped } from '../../platform/db/scoped.js';

/** Ids per `in (...)` list: well under both databases' bound-parameter limits. */
const BATCH = 500;

function batches<T>(items: T[]): T[][] {
  return Array.from({ length: Math.ceil(items.length / BATCH) }, (_, i) =>
    items.slice(i * BATCH, (i + 1) * BATCH),
  );
}

/**
 * The one writer of `device_tag`. Callers pass devices already found in the company (and under
 * the caller's data rules); every statement is scoped to the company as well.
 */
export class DeviceTagRepository {
  constructor(private readonly db: Db) {}

  /** The tags of each of `deviceIds` that has any, sorted. */
  async tagsOf(companyId: string, deviceIds: string[]): Promise<Map<string, string[]>> {
    const tags = new Map<string, string[]>();
    for (const ids of batches([...new Set(deviceIds)])) {
      const rows = await scoped(this.db, companyId)
        .selectFrom('device_tag')
        .select(['device_id', 'tag'])
        .where('device_id', 'in', ids)
        .orderBy('tag')
        .execute();
      for (const r of rows) tags.set(r.device_id, [...(tags.get(r.device_id) ?? []), r.tag]);
    }
    return tags;
  }

  /** Adds tags (those a device has already are kept as they are); all in one transaction. */
  async add(companyId: string, rows: { device_id: string; tag: string }[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.transaction().execute(async (trx) => {
      for (const chunk of batches(rows)) {
        await scoped(trx, companyId)
          .insertInto('device_tag', chunk)
          .onConflict((oc) => oc.columns(['device_id', 'tag']).doNothing())
          .execute();
      }
    });
  }

  async remove(companyId: string, deviceIds: string[], tags: string[]): Promise<void> {
    for (const ids of batches(deviceIds)) {
      await scoped(this.db, companyId)
        .deleteFrom('device_tag')
        .where('device_id', 'in', ids)
        .where('tag', 'in', tags)
        .execute();
    }
  }

  /** The device's tags become `tags`, in one transaction. */
  async replace(companyId: string, deviceId: string, tags: string[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const company = scoped(trx, companyId);
      await company.deleteFrom('device_tag').where('device_id', '=', deviceId).execute();
      if (tags.length > 0) {
        await company
          .insertInto(
            'device_tag',
            tags.map((tag) => ({ device_id: deviceId, tag })),
          )
          .execute();
      }
    });
  }

  /** The company's tags with how many devices carry each, the most used first. */
  async counts(companyId: string, limit: number) {
    const rows = await scoped(this.db, companyId)
      .selectFrom('device_tag')
      .select(['tag', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('tag')
      .orderBy('n', 'desc')
      .orderBy('tag')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ tag: r.tag, count: Number(r.n) }));
  }
}
