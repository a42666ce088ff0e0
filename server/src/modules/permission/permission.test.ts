import { gunzipSync } from 'node:zlib';
import type { TMenuItem } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_ROLE_ID,
  OPERATOR_ROLE_ID,
  PLATFORM_COMPANY_ID,
  permissionId,
} from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, authHeaders, createTestApp, type TestContext } from '../../test/app.js';

const URL = '/api/sys/permission/getUserPermissionByToken';

const titles = (menu: TMenuItem[]): string[] =>
  menu.flatMap((m) => [m.meta.title, ...titles(m.children ?? [])]);

describe('getUserPermissionByToken', () => {
  let t: TestContext;
  let admin: string;
  let operator: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.createUser({ username: 'operator1', password: 'Operator-Pass-1' });
    admin = await t.login('admin', ADMIN_PASSWORD);
    operator = await t.login('operator1', 'Operator-Pass-1');
  });
  afterAll(() => t.close());

  it('gives admin the whole menu, sorted, with the page permission on the log menu', async () => {
    const res = await t.app.inject({ method: 'GET', url: URL, headers: authHeaders(admin) });
    expect(res.statusCode).toBe(200);
    const { menu, auth, allAuth } = res.json().result;
    expect(menu.map((m: TMenuItem) => m.name)).toEqual([
      'dashboard-analysis',
      'device',
      'alarm',
      'base',
      'online',
      'account',
      'system',
      'isps-user-announcement',
      'isps-api-key',
      'test',
    ]);
    const [home, device, , , , , system] = menu as TMenuItem[];
    expect(device).toMatchObject({
      path: '/device',
      component: 'layouts/RouteView',
      redirect: '/device/list',
      meta: { title: '设备管理', icon: 'cluster' },
    });
    expect(
      device?.children?.map((c) => [c.path, c.component, c.hidden, c.meta.permissionList.length]),
    ).toEqual([
      ['/device/token', 'device/TokenList', false, 5],
      ['/device/group', 'device/GroupList', false, 4],
      ['/device/list', 'device/DeviceList', false, 10],
      ['/device/detail/:id', 'device/DeviceDetail', true, 1],
      ['/device/log', 'device/DeviceLogList', false, 2],
      ['/device/firmware', 'device/FirmwareList', false, 5],
      ['/device/campaign', 'device/CampaignList', false, 3],
      ['/device/campaign/:id', 'device/CampaignDetail', true, 1],
    ]);
    expect(device?.children?.map((c) => c.meta.title).slice(-3)).toEqual([
      '固件库',
      '升级任务',
      '升级任务详情',
    ]);
    expect(auth.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining([
        'token:reveal',
        'device:import',
        'device:export',
        'devicelog:list',
        'device:config',
        'device:command',
        'device:command:custom',
        'firmware:upload',
        'firmware:settings',
        'campaign:add',
        'campaign:control',
      ]),
    );
    expect(home).toMatchObject({
      path: '/dashboard/analysis',
      component: 'dashboard/Analysis',
      route: '1',
      meta: { title: '首页', icon: 'home' },
    });
    expect(system).toMatchObject({
      component: 'layouts/RouteView',
      redirect: '/system/log',
      meta: { title: '系统管理' },
    });
    expect(system?.children?.[0]).toMatchObject({
      path: '/system/log',
      name: 'system-log',
      component: 'system/LogList',
      meta: {
        title: '后台日志',
        icon: 'file-search',
        permissionList: [{ action: 'system:log:list', describe: '后台日志', type: '1' }],
      },
    });
    expect(auth).toContainEqual({ action: 'system:log:list', describe: '后台日志', type: '1' });
    expect(allAuth).toContainEqual({
      action: 'system:log:list',
      describe: '后台日志',
      type: '1',
      status: '1',
    });
  });

  it('sends the cached menu as UTF-8 bytes in the envelope, stamped per response', async () => {
    const get = () => t.app.inject({ method: 'GET', url: URL, headers: authHeaders(operator) });
    const first = await get();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await get();
    for (const res of [first, second]) {
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    }
    const [a, b] = [first.json(), second.json()];
    expect(a).toMatchObject({ success: true, message: '', code: 200 });
    expect(b.timestamp).toBeGreaterThan(a.timestamp);
    expect(b.result).toEqual(a.result);
    // The Chinese titles survive the byte encoding of the cached text.
    expect(titles(a.result.menu)).toContain('设备管理');

    const zipped = await t.app.inject({
      method: 'GET',
      url: URL,
      headers: { ...authHeaders(operator), 'accept-encoding': 'gzip' },
    });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString()).result).toEqual(a.result);
  });

  it('titles the menu in English for Accept-Language en-US', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: URL,
      headers: authHeaders(admin, { 'accept-language': 'en-US,en;q=0.9' }),
    });
    const menu: TMenuItem[] = res.json().result.menu;
    expect(menu.map((m) => m.meta.title)).toEqual([
      'Home',
      'Device Management',
      'Alarms',
      'Base data',
      'Online forms',
      'Account permissions',
      'System management',
      'My announcements',
      'API keys',
      'Test',
    ]);
    expect(titles(menu)).toEqual(
      expect.arrayContaining([
        'Token Key',
        'Groups',
        'Devices',
        'Logs',
        'Firmware',
        'Campaigns',
        'Login account',
        'Role management',
        'Menu permissions',
        'Backend logs',
        'Announcements',
      ]),
    );
  });

  it('gives the operator the device pages, the alarm list and the sites map to work in, and nothing of accounts or the system', async () => {
    const res = await t.app.inject({ method: 'GET', url: URL, headers: authHeaders(operator) });
    const { menu, auth, allAuth } = res.json().result;
    expect(titles(menu)).toEqual([
      '首页',
      '设备管理',
      '设备分组',
      '设备列表',
      '设备详情',
      '设备日志',
      '固件库',
      '升级任务',
      '升级任务详情',
      '警告管理',
      '告警列表',
      '基础数据',
      '站点地图',
      '我的通告',
    ]);
    expect((menu as TMenuItem[]).at(-1)).toMatchObject({
      path: '/isps/userAnnouncement',
      hidden: true,
    });
    const actions = auth.map((a: { action: string }) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(['device:list', 'device:config', 'device:command', 'device:export']),
    );
    for (const held of ['token:list', 'token:reveal', 'device:delete', 'device:command:custom'])
      expect(actions).not.toContain(held);
    expect(actions).not.toContain('campaign:add');
    expect(actions).not.toContain('system:log:list');
    expect(allAuth.map((a: { action: string }) => a.action)).toContain('system:log:list');
  });

  it('leaves out a menu group granted without any of its pages', async () => {
    const roleId = 'b'.repeat(32);
    await t.db
      .insertInto('sys_role')
      .values({
        id: roleId,
        company_id: PLATFORM_COMPANY_ID,
        role_code: 'grouponly',
        role_name: '只有分组',
        role_name_en: 'Group only',
        description: null,
        create_time: 0,
      })
      .execute();
    for (const key of ['dashboard-analysis', 'account', 'device', 'device-detail'])
      await t.db
        .insertInto('sys_role_permission')
        .values({ role_id: roleId, permission_id: permissionId(key), data_rule_ids: null })
        .execute();
    await t.createUser({ username: 'grouponly', password: 'Group-Only-Pass-1', roleIds: [roleId] });
    const token = await t.login('grouponly', 'Group-Only-Pass-1');
    const res = await t.app.inject({ method: 'GET', url: URL, headers: authHeaders(token) });
    // 设备管理 holds only a hidden page, 账户权限 nothing: neither is a menu entry.
    expect(titles(res.json().result.menu)).toEqual(['首页']);
  });

  it('answers 403 to the operator on a permission-guarded route', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sys/log/list',
      headers: authHeaders(operator),
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({
      success: false,
      code: 403,
      message: '拒绝访问',
      result: null,
    });
    const en = await t.app.inject({
      method: 'GET',
      url: '/api/sys/log/list',
      headers: authHeaders(operator, { 'accept-language': 'en-US' }),
    });
    expect(en.json().message).toBe('Access denied');
  });

  it('gives users of the same roles the same menu, and one whose roles change a menu of their own', async () => {
    const password = 'Same-Roles-Pass-1';
    await t.createUser({ username: 'twin-a', password, roleIds: [OPERATOR_ROLE_ID] });
    const twinB = await t.createUser({ username: 'twin-b', password, roleIds: [OPERATOR_ROLE_ID] });
    const [a, b] = [await t.login('twin-a', password), await t.login('twin-b', password)];
    const menuOf = async (token: string) =>
      (await t.app.inject({ method: 'GET', url: URL, headers: authHeaders(token) })).json()
        .result as { auth: { action: string }[] };
    expect(await menuOf(b)).toEqual(await menuOf(a));

    await t.db
      .insertInto('sys_user_role')
      .values({ user_id: twinB, role_id: ADMIN_ROLE_ID })
      .execute();
    await t.bus.publish('auth.permissions-changed', { userId: twinB });
    const codes = async (token: string) => (await menuOf(token)).auth.map((e) => e.action);
    expect(await codes(b)).toContain('system:log:list');
    expect(await codes(a)).not.toContain('system:log:list');
  });

  it('picks up a new grant once the bus reports the change', async () => {
    for (const key of ['system', 'system-log']) {
      await t.db
        .insertInto('sys_role_permission')
        .values({
          role_id: OPERATOR_ROLE_ID,
          permission_id: permissionId(key),
          data_rule_ids: null,
        })
        .execute();
    }
    const before = await t.app.inject({
      method: 'GET',
      url: '/api/sys/log/list',
      headers: authHeaders(operator),
    });
    expect(before.statusCode).toBe(403);
    // Roles are edited through services that publish this; the test stands in for them.
    await t.bus.publish('auth.permissions-changed', {});
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/sys/log/list',
      headers: authHeaders(operator),
    });
    expect(after.statusCode).toBe(200);
    const menu = await t.app.inject({ method: 'GET', url: URL, headers: authHeaders(operator) });
    expect(titles(menu.json().result.menu)).toEqual(
      expect.arrayContaining(['首页', '系统管理', '后台日志', '我的通告']),
    );
  });
});
