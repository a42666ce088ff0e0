import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../../platform/auth/passwords.js';
import { newId } from '../../platform/db/ids.js';
import type { TMenuItem } from '@blrms/contracts';
import {
  ADMIN_PASSWORD,
  TEST_HASH_COST,
  authHeaders,
  createTestApp,
  type TestContext,
} from '../../test/app.js';
import { isPlatformOnly } from './menu.js';
import { OPERATOR_ROLE_ID, permissionId, seed } from './seed.js';

describe('seed on an existing database', () => {
  let t: TestContext;
  let customerAdminRole: string;

  const grantedTo = async (roleId: string) =>
    (
      await t.db
        .selectFrom('sys_role_permission')
        .select('permission_id')
        .where('role_id', '=', roleId)
        .execute()
    ).map((g) => g.permission_id);

  beforeAll(async () => {
    t = await createTestApp();
    const companyId = await t.createCompany('acme');
    customerAdminRole = newId();
    await t.db
      .insertInto('sys_role')
      .values({
        id: customerAdminRole,
        company_id: companyId,
        role_code: 'admin',
        role_name: '管理员',
        role_name_en: 'Administrator',
        description: null,
        create_time: 0,
      })
      .execute();
    const rows = (await t.db.selectFrom('sys_permission').select(['id', 'perms']).execute()).filter(
      (r) => !isPlatformOnly(r.perms),
    );
    await t.db
      .insertInto('sys_role_permission')
      .values(
        rows.map((r) => ({ role_id: customerAdminRole, permission_id: r.id, data_rule_ids: null })),
      )
      .execute();
    // As before a release that brings the device log page and its (platform-only) retention
    // button, and the firmware page with its (platform-only) upload limit: the rows do not exist
    // yet. And the customer's administrator has taken the token page away from their own admin
    // role.
    const added = [
      'device:retention',
      'device-log',
      'firmware:upload',
      'firmware:edit',
      'firmware:delete',
      'firmware:settings',
      'device-firmware',
    ].map(permissionId);
    await t.db.deleteFrom('sys_role_permission').where('permission_id', 'in', added).execute();
    for (const id of added) await t.db.deleteFrom('sys_permission').where('id', '=', id).execute();
    await t.db
      .deleteFrom('sys_role_permission')
      .where('role_id', '=', customerAdminRole)
      .where('permission_id', '=', permissionId('device-token'))
      .execute();
  });
  afterAll(() => t.close());

  it('grants rows a release adds to customer administrators, and leaves removed grants removed', async () => {
    await seed(t.db, {
      adminPassword: 'unused-Password-1',
      hasher: new PasswordHasher(TEST_HASH_COST),
      clock: () => 1,
      announce: () => {},
      menu: t.app.menuRows,
    });
    const granted = await grantedTo(customerAdminRole);
    expect(granted).toContain(permissionId('device-log'));
    expect(granted).not.toContain(permissionId('device:retention'));
    expect(granted).toContain(permissionId('device-firmware'));
    expect(granted).toContain(permissionId('firmware:upload'));
    expect(granted).not.toContain(permissionId('firmware:settings'));
    expect(granted).not.toContain(permissionId('device-token'));
    expect(granted).not.toContain(permissionId('system-company'));
  });
});

describe('the /test route', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const menuOf = async (token: string): Promise<TMenuItem[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sys/permission/getUserPermissionByToken',
      headers: authHeaders(token),
    });
    return res.json().result.menu;
  };

  it('redirects to /test/home (TestHome) for administrators, hidden from the side menu', async () => {
    const menu = await menuOf(await t.login('admin', ADMIN_PASSWORD));
    expect(menu.find((m) => m.path === '/test')).toMatchObject({
      redirect: '/test/home',
      hidden: true,
      children: [{ path: '/test/home', name: 'TestHome', component: 'test/TestHome' }],
    });
  });

  it('is not granted to operators', async () => {
    await t.createUser({
      username: 'testop',
      password: 'Strong-Pass-42',
      roleIds: [OPERATOR_ROLE_ID],
    });
    const menu = await menuOf(await t.login('testop', 'Strong-Pass-42'));
    expect(menu.map((m) => m.path)).not.toContain('/test');
  });

  it('lets operators answer alarms but not write alarm rules', async () => {
    await t.createUser({
      username: 'alarmop',
      password: 'Strong-Pass-42',
      roleIds: [OPERATOR_ROLE_ID],
    });
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sys/permission/getUserPermissionByToken',
      headers: authHeaders(await t.login('alarmop', 'Strong-Pass-42')),
    });
    const { menu, auth } = res.json().result as {
      menu: TMenuItem[];
      auth: { action: string }[];
    };
    const alarmPages = menu.find((m) => m.path === '/alarm')?.children?.map((c) => c.path);
    expect(alarmPages).toEqual(['/alarm/list']);
    const actions = auth.map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['alarm:ack', 'alarm:clear', 'alarm:export']));
    expect(actions).not.toContain('alarm:rule:add');
  });
});
