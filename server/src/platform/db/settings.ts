import type { Db } from './database.js';

/**
 * Platform settings kept in `sys_setting` (key → text): what operators change at run time without
 * a new environment name (SMS gateway, data retention, the MQTT hook secret). Repositories that
 * own a setting call these, so the table is read and written one way.
 */
export async function readSetting(db: Db, key: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('sys_setting')
    .select('setting_value')
    .where('setting_key', '=', key)
    .executeTakeFirst();
  return row?.setting_value;
}

export async function writeSetting(db: Db, key: string, value: string, now: number): Promise<void> {
  await db
    .insertInto('sys_setting')
    .values({ setting_key: key, setting_value: value, update_time: now })
    .onConflict((oc) =>
      oc.column('setting_key').doUpdateSet({ setting_value: value, update_time: now }),
    )
    .execute();
}

/** Stores the value unless the key exists: of nodes starting together, the first one wins. */
export async function insertSettingIfAbsent(
  db: Db,
  key: string,
  value: string,
  now: number,
): Promise<void> {
  await db
    .insertInto('sys_setting')
    .values({ setting_key: key, setting_value: value, update_time: now })
    .onConflict((oc) => oc.column('setting_key').doNothing())
    .execute();
}
