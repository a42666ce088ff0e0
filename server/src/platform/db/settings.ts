import { randomBytes } from 'node:crypto';
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

/**
 * A secret made at first use (32 random bytes, base64url) and kept under `key`, so every node has
 * the same one without an environment variable: of nodes starting together, the first to store
 * one wins and the others read it.
 */
export async function sharedSecret(db: Db, key: string, now: number): Promise<string> {
  const stored = await readSetting(db, key);
  if (stored) return stored;
  await db
    .insertInto('sys_setting')
    .values({
      setting_key: key,
      setting_value: randomBytes(32).toString('base64url'),
      update_time: now,
    })
    .onConflict((oc) => oc.column('setting_key').doNothing())
    .execute();
  const secret = await readSetting(db, key);
  if (!secret) throw new Error(`setting ${key} not stored`);
  return secret;
}
