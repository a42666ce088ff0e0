import type { Kysely } from 'kysely';

/*
 * Two indexes on `device` for queries by last contact, measured at a million devices.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  // "Seen in the last 24 h" counts only the offline devices by time (connected ones are seen now).
  await db.schema
    .createIndex('idx_device_company_status_seen')
    .on('device')
    .columns(['company_id', 'status', 'last_seen_at'])
    .execute();
  // A group's devices by last contact: walking the whole last-seen index for one group's rows
  // took seconds when the group's devices were all seen long ago.
  await db.schema
    .createIndex('idx_device_company_group_seen')
    .on('device')
    .columns(['company_id', 'group_id', 'last_seen_at', 'id'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropIndex('idx_device_company_group_seen').execute();
  await db.schema.dropIndex('idx_device_company_status_seen').execute();
}
