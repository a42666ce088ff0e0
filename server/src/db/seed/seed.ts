import { randomInt } from 'node:crypto';
import type { PasswordHasher } from '../../platform/auth/passwords.js';
import type { Clock } from '../../platform/clock.js';
import type { Db } from '../../platform/db/database.js';
import { stableId } from '../../platform/db/ids.js';
import { DICTIONARIES } from './dictionaries.js';
import { MENU_GROUPS, OPERATOR_MENU, isPlatformOnly, type SeedPermission } from './menu.js';

export const PLATFORM_COMPANY_ID = stableId('company', 'platform');
export const ADMIN_ROLE_ID = stableId('role', 'platform:admin');
export const OPERATOR_ROLE_ID = stableId('role', 'platform:operator');

const DEPARTS = [
  {
    orgCode: 'A01',
    parent: null,
    name: 'BLRMS 平台',
    nameEn: 'BLRMS Platform',
    category: 1,
    order: 0,
  },
  { orgCode: 'A01A01', parent: 'A01', name: '研发部', nameEn: 'R&D', category: 2, order: 0 },
  { orgCode: 'A01A02', parent: 'A01', name: '运维部', nameEn: 'Operations', category: 2, order: 1 },
];
const ADMIN_DEPARTS = ['A01A01', 'A01A02'];

export const departId = (orgCode: string) => stableId('depart', orgCode);
export const permissionId = (key: string) => stableId('permission', key);

const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789';

function generatePassword(): string {
  return Array.from(
    { length: 16 },
    () => PASSWORD_ALPHABET[randomInt(PASSWORD_ALPHABET.length)],
  ).join('');
}

export interface SeedOptions {
  adminPassword: string | undefined;
  hasher: PasswordHasher;
  clock: Clock;
  /** Shows the generated admin password to the operator, once. */
  announce: (line: string) => void;
  /** The modules' menu rows, written after the groups (`MENU_GROUPS`) they hang from. */
  menu: readonly SeedPermission[];
}

/**
 * Brings the base data to what the server needs. Safe to run at every start: rows are created when
 * missing and never overwritten, so edits made in the admin screens survive restarts.
 */
export async function seed(db: Db, options: SeedOptions): Promise<void> {
  const now = options.clock();

  await db
    .insertInto('sys_company')
    .values({
      id: PLATFORM_COMPANY_ID,
      name: 'BLRMS',
      code: 'platform',
      status: 1,
      is_platform: 1,
      create_time: now,
      update_time: null,
    })
    .onConflict((oc) => oc.doNothing())
    .execute();

  for (const d of DEPARTS) {
    await db
      .insertInto('sys_depart')
      .values({
        id: departId(d.orgCode),
        company_id: PLATFORM_COMPANY_ID,
        parent_id: d.parent ? departId(d.parent) : null,
        depart_name: d.name,
        depart_name_en: d.nameEn,
        org_code: d.orgCode,
        org_category: d.category,
        depart_order: d.order,
        status: 1,
        create_time: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  const existingPermissions = new Set(
    (await db.selectFrom('sys_permission').select('id').execute()).map((p) => p.id),
  );
  const menu = [...MENU_GROUPS, ...options.menu];
  for (const p of menu) {
    const { key, parent, ...row } = p;
    await db
      .insertInto('sys_permission')
      .values({
        perms_type: '1',
        status: '1',
        sort_no: 0,
        hidden: 0,
        keep_alive: 0,
        always_show: 0,
        route: 1,
        internal_or_external: 0,
        is_leaf: 1,
        del_flag: 0,
        ...row,
        id: permissionId(key),
        parent_id: parent ? permissionId(parent) : null,
        create_time: now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  const roles = [
    { id: ADMIN_ROLE_ID, code: 'admin', name: '管理员', nameEn: 'Administrator' },
    { id: OPERATOR_ROLE_ID, code: 'operator', name: '运维人员', nameEn: 'Operator' },
  ];
  let operatorCreated = false;
  for (const r of roles) {
    const inserted = await db
      .insertInto('sys_role')
      .values({
        id: r.id,
        company_id: PLATFORM_COMPANY_ID,
        role_code: r.code,
        role_name: r.name,
        role_name_en: r.nameEn,
        description: null,
        create_time: now,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (r.id === OPERATOR_ROLE_ID) operatorCreated = Number(inserted.numInsertedOrUpdatedRows) > 0;
  }

  // Every start: the admin role keeps up with menu rows added by later seeds and migrations. The
  // operator role gets its pages once, when it is created: a page an administrator took from it
  // stays taken.
  const allPermissions = await db
    .selectFrom('sys_permission')
    .select('id')
    .where('del_flag', '=', 0)
    // A company's own rows (its published online forms) are granted by publishing.
    .where('company_id', 'is', null)
    .execute();
  const grants = [
    ...allPermissions.map((p) => ({ role_id: ADMIN_ROLE_ID, permission_id: p.id })),
    ...(operatorCreated ? OPERATOR_MENU : []).map((key) => ({
      role_id: OPERATOR_ROLE_ID,
      permission_id: permissionId(key),
    })),
  ];
  for (const g of grants) {
    await db
      .insertInto('sys_role_permission')
      .values({ ...g, data_rule_ids: null })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }

  await grantNewRowsToCompanyAdmins(
    db,
    menu.filter((p) => !existingPermissions.has(permissionId(p.key)) && !isPlatformOnly(p.perms)),
  );
  await seedAdmin(db, options, now);
  await seedDictionaries(db, now);
}

/**
 * Menu rows a release adds reach the administrators of existing customer companies, as they would
 * have had them had the company been created after the release. Rows that already existed are
 * left alone: a grant an administrator removed stays removed.
 */
async function grantNewRowsToCompanyAdmins(db: Db, added: SeedPermission[]): Promise<void> {
  if (added.length === 0) return;
  const adminRoles = await db
    .selectFrom('sys_role as r')
    .innerJoin('sys_company as c', 'c.id', 'r.company_id')
    .select('r.id')
    .where('r.role_code', '=', 'admin')
    .where('c.is_platform', '=', 0)
    .execute();
  for (const role of adminRoles) {
    for (const p of added) {
      await db
        .insertInto('sys_role_permission')
        .values({ role_id: role.id, permission_id: permissionId(p.key), data_rule_ids: null })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}

async function seedAdmin(db: Db, options: SeedOptions, now: number): Promise<void> {
  const existing = await db
    .selectFrom('sys_user')
    .select('id')
    .where('username', '=', 'admin')
    .executeTakeFirst();
  if (existing) return;

  const password = options.adminPassword ?? generatePassword();
  const adminId = stableId('user', 'admin');
  await db
    .insertInto('sys_user')
    .values({
      id: adminId,
      company_id: PLATFORM_COMPANY_ID,
      username: 'admin',
      realname: '管理员',
      password_hash: await options.hasher.hash(password),
      avatar: null,
      phone: null,
      email: null,
      status: 1,
      org_code: ADMIN_DEPARTS[0] ?? null,
      del_flag: 0,
      create_by: null,
      create_time: now,
      update_time: null,
    })
    .execute();
  await db
    .insertInto('sys_user_company')
    .values({ user_id: adminId, company_id: PLATFORM_COMPANY_ID })
    .execute();
  await db
    .insertInto('sys_user_role')
    .values({ user_id: adminId, role_id: ADMIN_ROLE_ID })
    .execute();
  for (const orgCode of ADMIN_DEPARTS) {
    await db
      .insertInto('sys_user_depart')
      .values({ user_id: adminId, depart_id: departId(orgCode) })
      .execute();
  }

  if (!options.adminPassword) {
    const lines = [
      `Initial admin password: ${password}`,
      'Shown once: store it now, then change it.',
    ];
    const width = Math.max(...lines.map((l) => l.length));
    const border = `+${'-'.repeat(width + 2)}+`;
    options.announce([border, ...lines.map((l) => `| ${l.padEnd(width)} |`), border].join('\n'));
  }
}

/**
 * The platform dictionaries the console's selects read. A dictionary's items are written when the
 * dictionary is created; afterwards they are the platform administrator's to rename, reorder,
 * disable or delete, and a restart does not bring back an item taken away. A dictionary purged
 * from the recycle bin is created again, with its items, at the next start: the console needs it.
 */
async function seedDictionaries(db: Db, now: number): Promise<void> {
  for (const d of DICTIONARIES) {
    const dictId = stableId('dict', d.code);
    const created = await db
      .insertInto('sys_dict')
      .values({
        id: dictId,
        company_id: PLATFORM_COMPANY_ID,
        dict_code: d.code,
        dict_name: d.name,
        dict_name_en: d.nameEn,
        description: null,
        del_flag: 0,
        create_by: null,
        create_time: now,
        update_time: null,
      })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    if (Number(created.numInsertedOrUpdatedRows ?? 0) === 0) continue;
    for (const [index, item] of d.items.entries()) {
      await db
        .insertInto('sys_dict_item')
        .values({
          id: stableId('dict-item', `${d.code}:${item.value}`),
          dict_id: dictId,
          item_value: item.value,
          item_text: item.text,
          item_text_en: item.textEn,
          item_color: item.color ?? null,
          description: null,
          sort_order: index,
          status: 1,
          create_time: now,
          update_time: null,
        })
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
  }
}
