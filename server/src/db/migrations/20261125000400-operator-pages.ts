import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

/*
 * The seeded Operator role (运维人员) granted only Home and the user's own announcements, so a user
 * given that role had no page to work in. Existing platforms get the device pages an operator
 * needs once; a new platform's seed grants them when it creates the role.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const stableId = (kind: string, key: string) =>
  createHash('sha256').update(`${kind}:${key}`).digest('hex').slice(0, 32);

const ADDED = [
  'device',
  'device-group',
  'device-list',
  'device:export',
  'device:config',
  'device:command',
  'device-detail',
  'device-log',
  'device-firmware',
  'device-campaign',
  'device-campaign-detail',
];

export async function up(db: AnyDb): Promise<void> {
  const roleId = stableId('role', 'platform:operator');
  const role = await db.selectFrom('sys_role').select('id').where('id', '=', roleId).execute();
  if (role.length === 0) return;
  const existing = await db
    .selectFrom('sys_permission')
    .select('id')
    .where(
      'id',
      'in',
      ADDED.map((key) => stableId('permission', key)),
    )
    .execute();
  for (const { id } of existing) {
    await db
      .insertInto('sys_role_permission')
      .values({ role_id: roleId, permission_id: id, data_rule_ids: null })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

export async function down(): Promise<void> {
  // Grants are data an administrator may have changed since; nothing to undo safely.
}
