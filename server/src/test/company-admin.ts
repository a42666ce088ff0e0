import { newId } from '../platform/db/ids.js';
import type { TestContext } from './app.js';

/**
 * A customer company with its own `admin` role, granted the catalogue rows whose codes are
 * listed (and the menus above them), and a user holding it: a company administrator.
 */
export async function createCompanyAdmin(
  t: TestContext,
  input: { code: string; username: string; password: string; perms: string[] },
): Promise<{ companyId: string; roleId: string; userId: string }> {
  const companyId = await t.createCompany(input.code);
  const roleId = await createRole(t, companyId, 'admin', input.perms);
  const userId = await t.createUser({
    username: input.username,
    password: input.password,
    companyId,
    roleIds: [roleId],
  });
  return { companyId, roleId, userId };
}

/** A role of the company granted the rows with the given codes, their ancestors and the home page. */
export async function createRole(
  t: TestContext,
  companyId: string,
  code: string,
  perms: string[],
): Promise<string> {
  const roleId = newId();
  await t.db
    .insertInto('sys_role')
    .values({
      id: roleId,
      company_id: companyId,
      role_code: code,
      role_name: code,
      role_name_en: null,
      description: null,
      create_time: t.clock.now,
    })
    .execute();
  const rows = await t.db
    .selectFrom('sys_permission')
    .select(['id', 'parent_id', 'perms', 'url'])
    .where('del_flag', '=', 0)
    .execute();
  const wanted = new Set<string>();
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const row of rows) {
    if ((row.perms && perms.includes(row.perms)) || row.url === '/dashboard/analysis') {
      for (
        let at: typeof row | undefined = row;
        at;
        at = at.parent_id ? byId.get(at.parent_id) : undefined
      ) {
        wanted.add(at.id);
      }
    }
  }
  for (const permissionId of wanted) {
    await t.db
      .insertInto('sys_role_permission')
      .values({ role_id: roleId, permission_id: permissionId, data_rule_ids: null })
      .execute();
  }
  return roleId;
}
