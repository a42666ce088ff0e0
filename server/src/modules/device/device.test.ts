import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID } from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext, fieldText } from '../../test/app.js';
import { DEVICE_PAGES, client, createRole, type Client } from '../../test/devices.js';

describe('devices', () => {
  let t: TestContext;
  let admin: Client;
  let bossB: Client;
  let token: { id: string; code: string };
  let groupId: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const companyB = await t.createCompany('device-b');
    await t.createUser({
      username: 'devbossb',
      password: 'Boss-B-Pass-1',
      companyId: companyB,
      roleIds: [ADMIN_ROLE_ID],
    });
    bossB = client(t, await t.login('devbossb', 'Boss-B-Pass-1'));
    token = await admin.ok('POST', '/device/token/add', { name: 'devices' });
    groupId = (await admin.ok('POST', '/device/group/add', { name: 'Lab' })).id;
  });
  afterAll(() => t.close());

  const add = (sn: string, extra: object = {}) =>
    admin.ok('POST', '/device/device/add', {
      tokenId: token.id,
      sn,
      name: `name-${sn}`,
      series: 'R40',
      ...extra,
    });

  it('registers a device under the token, owned by the token’s owner, offline', async () => {
    const device = await add('ADD-1', {
      model: 'R40-4G',
      version: '1.2.0',
      groupId,
      remark: 'rack 3',
      location: 'Shenzhen',
    });
    expect(device).toMatchObject({
      tagCode: `${token.code}:ADD-1`,
      sn: 'ADD-1',
      series: 'R40',
      model: 'R40-4G',
      version: '1.2.0',
      groupId,
      groupName: 'Lab',
      status: 'offline',
      enabled: true,
      tokenName: 'devices',
      ownerName: 'admin',
      lastSeenAt: null,
    });
    expect(await admin.ok('GET', `/device/device/queryById?id=${device.id}`)).toEqual(device);
    const row = await t.db
      .selectFrom('device')
      .select(['sys_org_code', 'status'])
      .where('id', '=', device.id)
      .executeTakeFirstOrThrow();
    // The owner's current department at creation.
    expect(row).toEqual({ sys_org_code: 'A01A01', status: 'offline' });
  });

  it('refuses a duplicate SN under the same token, in both languages', async () => {
    await add('DUP-1');
    const en = await admin.post('/device/device/add', {
      tokenId: token.id,
      sn: 'DUP-1',
      name: 'again',
      series: 'S27X',
    });
    expect(en.statusCode).toBe(409);
    expect(en.json().message).toBe('SN already exists!');
    const zh = await t.app.inject({
      method: 'POST',
      url: '/api/device/device/add',
      headers: { ...admin.headers, 'accept-language': 'zh-CN' },
      payload: { tokenId: token.id, sn: 'DUP-1', name: 'again', series: 'S27X' },
    });
    expect(zh.json().message).toBe('SN已存在！');
    // The same SN under another token is another device.
    const other = await admin.ok('POST', '/device/token/add', { name: 'other' });
    const res = await admin.post('/device/device/add', {
      tokenId: other.id,
      sn: 'DUP-1',
      name: 'x',
      series: 'R40',
    });
    expect(res.statusCode).toBe(200);
  });

  it.each([
    [{ sn: 'bad sn' }, /^sn: must be 1 to 64 letters, digits, _ or -/],
    [{ sn: "x'or'1'='1" }, /^sn: /],
    [{ sn: 'A'.repeat(65) }, /^sn: /],
    [{ sn: '' }, /^sn: /],
    [{ series: 'X99' }, /^series: must be one of: R40, BL10X, S27X/],
    [{ name: '' }, /^name: /],
    [{ tokenId: 'nope' }, /^tokenId: must be a 32-character id/],
    [{ ownerId: 'a'.repeat(32) }, /ownerId is not an allowed field/],
  ])('refuses %j with 400 naming the field', async (override, expected) => {
    const res = await admin.post('/device/device/add', {
      tokenId: token.id,
      sn: 'OK-1',
      name: 'ok',
      series: 'R40',
      ...override,
    });
    expect(res.statusCode).toBe(400);
    expect(fieldText(res.json())).toMatch(expected);
  });

  it('edits a device and logs what changed', async () => {
    const device = await add('EDIT-1', { version: '1.0' });
    t.clock.advance(1000);
    const edited = await admin.ok('PUT', '/device/device/edit', {
      id: device.id,
      name: 'renamed',
      series: 'BL10X',
      version: '2.0',
      groupId,
      enabled: false,
    });
    expect(edited).toMatchObject({
      name: 'renamed',
      series: 'BL10X',
      version: '2.0',
      groupName: 'Lab',
      enabled: false,
      sn: 'EDIT-1',
    });
    const logs = await admin.ok('GET', `/device/log/list?deviceId=${device.id}`);
    expect(logs.records.map((l: { subject: string }) => l.subject)).toEqual([
      'Device edited',
      'Device added',
    ]);
    const content = JSON.parse(logs.records[0].content);
    expect(content).toMatchObject({
      name: { from: 'name-EDIT-1', to: 'renamed' },
      version: { from: '1.0', to: '2.0' },
    });
    expect(logs.records[0]).toMatchObject({
      sourceUser: 'admin',
      targetUser: 'admin',
      requestUrl: '/api/device/device/edit',
      state: 'succeeded',
    });
  });

  it('moves devices between groups and deletes them in batches', async () => {
    const a = await add('BATCH-1');
    const b = await add('BATCH-2');
    const moved = await admin.ok('PUT', '/device/device/moveToGroup', {
      ids: [a.id, b.id],
      groupId,
    });
    expect(moved.count).toBe(2);
    expect((await admin.ok('GET', `/device/device/list?groupId=${groupId}&sn=BATCH`)).total).toBe(
      2,
    );
    await admin.ok('PUT', '/device/device/moveToGroup', { ids: [a.id], groupId: null });
    expect((await admin.ok('GET', `/device/device/list?groupId=none&sn=BATCH`)).total).toBe(1);

    const deleted = await admin.ok('DELETE', `/device/device/deleteBatch?ids=${a.id},${b.id}`);
    expect(deleted.count).toBe(2);
    expect((await admin.get(`/device/device/queryById?id=${a.id}`)).statusCode).toBe(404);
    // The log outlives the device.
    const logs = await admin.ok('GET', `/device/log/list?deviceId=${a.id}&subject=deleted`);
    expect(logs.total).toBe(1);
  });

  it('keeps devices inside their company', async () => {
    const device = await add('MINE-1');
    expect((await bossB.ok('GET', '/device/device/list')).total).toBe(0);
    for (const res of [
      await bossB.get(`/device/device/queryById?id=${device.id}`),
      await bossB.put('/device/device/edit', {
        id: device.id,
        name: 'x',
        series: 'R40',
        enabled: true,
      }),
      await bossB.del(`/device/device/delete?id=${device.id}`),
      await bossB.del(`/device/device/deleteBatch?ids=${device.id}`),
      await bossB.put('/device/device/moveToGroup', { ids: [device.id], groupId: null }),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    // Nor can company B add devices under company A's token.
    const res = await bossB.post('/device/device/add', {
      tokenId: token.id,
      sn: 'STEAL-1',
      name: 'x',
      series: 'R40',
    });
    expect(res.statusCode).toBe(404);
    expect(fieldText(res.json())).toBe('tokenId: token key not found');
    expect((await bossB.ok('GET', '/device/device/summary')).total).toBe(0);
    expect((await bossB.ok('GET', '/device/log/list')).total).toBe(0);
    expect((await admin.ok('GET', `/device/device/queryById?id=${device.id}`)).name).toBe(
      'name-MINE-1',
    );
  });

  it('filters, sorts and pages the list', async () => {
    const t0 = t.clock.now;
    t.clock.advance(60_000);
    await add('FLT-b', { series: 'S27X', version: '3.1.0' });
    t.clock.advance(1000);
    await add('FLT-a', { series: 'S27X', version: '3.2.0', groupId });
    t.clock.advance(1000);
    await add('FLT-c', { series: 'BL10X', version: '3.1.5' });
    const sns = async (query: string) =>
      (await admin.ok('GET', `/device/device/list?${query}`)).records.map(
        (d: { sn: string }) => d.sn,
      );
    expect(await sns('sn=FLT&column=sn&order=asc')).toEqual(['FLT-a', 'FLT-b', 'FLT-c']);
    expect(await sns('sn=FLT')).toEqual(['FLT-c', 'FLT-a', 'FLT-b']);
    expect(await sns('sn=FLT&series=S27X&column=version&order=desc')).toEqual(['FLT-a', 'FLT-b']);
    expect(await sns('version=3.1&column=sn&order=asc')).toEqual(['FLT-b', 'FLT-c']);
    expect(await sns(`sn=FLT&groupId=${groupId}`)).toEqual(['FLT-a']);
    expect(await sns('name=name-FLT-c')).toEqual(['FLT-c']);
    const since = encodeURIComponent(new Date(t0 + 60_500).toISOString());
    expect(await sns(`sn=FLT&createTime_begin=${since}&column=sn&order=asc`)).toEqual([
      'FLT-a',
      'FLT-c',
    ]);
    // % and _ are literal, not wildcards.
    expect(await sns('sn=%25')).toEqual([]);
    const page = await admin.ok('GET', '/device/device/list?sn=FLT&pageSize=2&pageNo=2');
    expect(page).toMatchObject({ total: 3, pages: 2, current: 2, size: 2 });
    expect(page.records).toHaveLength(1);
  });

  it('finds SN and name substrings exactly, short texts and wildcard characters included', async () => {
    await add('SUBab_1', { name: 'cold % room "A"' });
    await add('SUBabX1', { name: 'cold store' });
    const renamed = await add('SUBc-77', { name: 'old name' });
    const removed = await add('SUBgone9');
    await admin.ok('PUT', '/device/device/edit', {
      id: renamed.id,
      name: 'Hot 50% shelf',
      series: 'R40',
      enabled: true,
    });
    await admin.ok('DELETE', `/device/device/deleteBatch?ids=${removed.id}`);
    const found = async (query: string) => {
      const page = await admin.ok(
        'GET',
        `/device/device/list?pageSize=100&column=sn&order=asc&${query}`,
      );
      const sns = page.records.map((d: { sn: string }) => d.sn);
      // The total counts the same devices the page lists.
      expect(page.total).toBe(sns.length);
      return sns;
    };
    const q = (text: string) => encodeURIComponent(text);
    // Three characters and more go through the trigram indexes; fewer are scanned for.
    expect(await found(`sn=${q('SUBab')}`)).toEqual(['SUBabX1', 'SUBab_1']);
    expect(await found(`sn=${q('b_1')}`)).toEqual(['SUBab_1']);
    expect(await found(`sn=${q('_')}`)).toEqual(['SUBab_1']);
    expect(await found(`sn=${q('X1')}`)).toEqual(['SUBabX1']);
    expect(await found(`sn=${q('c-7')}`)).toEqual(['SUBc-77']);
    expect(await found(`sn=${q('gone')}`)).toEqual([]);
    expect(await found(`sn=${q('bX_')}`)).toEqual([]);
    expect(await found(`name=${q('d % r')}`)).toEqual(['SUBab_1']);
    expect(await found(`name=${q('%')}`)).toEqual(['SUBab_1', 'SUBc-77']);
    expect(await found(`name=${q('0%')}`)).toEqual(['SUBc-77']);
    expect(await found(`name=${q('"A"')}`)).toEqual(['SUBab_1']);
    expect(await found(`name=${q('cold s')}`)).toEqual(['SUBabX1']);
    expect(await found(`name=${q('% shelf')}`)).toEqual(['SUBc-77']);
    expect(await found(`name=${q('old name')}`)).toEqual([]);
    // Case is ignored on both databases, through the trigram indexes and below their length.
    expect(await found(`sn=${q('subabx')}`)).toEqual(['SUBabX1']);
    expect(await found(`name=${q('hot')}`)).toEqual(['SUBc-77']);
    expect(await found(`sn=${q('x1')}`)).toEqual(['SUBabX1']);
  });

  it('counts list totals exactly, with and without text filters', async () => {
    const all = await admin.ok('GET', '/device/device/list?pageSize=1');
    const real = await t.db
      .selectFrom('device')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(all.total).toBe(Number(real.n));
    const s27x = await admin.ok('GET', '/device/device/list?series=S27X&status=offline');
    expect(s27x.total).toBe(2);
    const online = await admin.ok('GET', '/device/device/list?status=online');
    expect(online.total).toBe(0);
    const pastTheEnd = await admin.ok('GET', '/device/device/list?series=S27X&pageNo=50');
    expect(pastTheEnd).toMatchObject({ records: [], total: 2, current: 50 });
  });

  it.each([
    'column=updatexml(1,concat(0x7e,user(),0x7e),1)',
    'column=create_time',
    `order=${encodeURIComponent('desc;drop table x')}`,
    `sn=${encodeURIComponent("' or 1=1 --")}x${'y'.repeat(64)}`,
    'series=R40%27%20or%20%271%27=%271',
    'status=up',
    'groupId=1%3D1',
    'createTime_begin=yesterday',
    'pageSize=1001',
    'companyId=x',
  ])('refuses %s with 400, never 5xx', async (query) => {
    const res = await admin.get(`/device/device/list?${query}`);
    expect(res.statusCode).toBe(400);
    expect(fieldText(res.json())).toMatch(/^\w+: /);
  });

  it('summarises devices by status, series and version, with the recent logs', async () => {
    t.clock.advance(1000);
    const seen = await add('SUM-1', { series: 'BL10X', version: '9.9.9' });
    await t.db
      .updateTable('device')
      .set({ status: 'online', last_seen_at: t.clock.now - 3600_000 })
      .where('id', '=', seen.id)
      .execute();
    t.clock.advance(1000);
    const recent = await add('SUM-2');
    t.clock.advance(1000);
    const old = await add('SUM-3');
    for (const [device, seen] of [
      [recent, t.clock.now - 2 * 3600_000],
      [old, t.clock.now - 25 * 3600_000],
    ] as const) {
      await t.db
        .updateTable('device')
        .set({ last_seen_at: seen })
        .where('id', '=', device.id)
        .execute();
    }
    const summary = await admin.ok('GET', '/device/device/summary');
    const rows = await t.db.selectFrom('device').select(['status', 'series', 'version']).execute();
    expect(summary.total).toBe(rows.length);
    expect(summary.online).toBe(1);
    expect(summary.offline).toBe(rows.length - 1);
    // The online one, and the offline one seen 2 hours ago; not the one seen 25 hours ago.
    expect(summary.seen24h).toBe(2);
    expect(summary.bySeries).toEqual(
      ['R40', 'BL10X', 'S27X'].map((series) => ({
        series,
        total: rows.filter((r) => r.series === series).length,
        online: series === 'BL10X' ? 1 : 0,
      })),
    );
    expect(summary.byVersion[0]).toEqual({
      version: null,
      total: rows.filter((r) => r.version === null).length,
    });
    expect(summary.byVersion).toContainEqual({ version: '9.9.9', total: 1 });
    expect(summary.recentLogs).toHaveLength(10);
    expect(summary.recentLogs[0]).toMatchObject({ sn: 'SUM-3', subject: 'Device added' });
  });

  it('keeps the counts exact through every kind of change', async () => {
    const device = await add('STATS-1', { version: '1' });
    await t.db
      .updateTable('device')
      .set({ status: 'online' })
      .where('id', '=', device.id)
      .execute();
    await admin.ok('PUT', '/device/device/edit', {
      id: device.id,
      name: 'x',
      series: 'S27X',
      version: '2',
      groupId,
      enabled: true,
    });
    await admin.ok('DELETE', `/device/group/delete?id=${groupId}`);
    groupId = (await admin.ok('POST', '/device/group/add', { name: 'Lab 2' })).id;
    await expectStatsExact();
  });

  it('keeps the counts exact when one statement changes many devices', async () => {
    const [first, second, third, fourth] = [
      (await add('BULK-1')).id as string,
      (await add('BULK-2')).id as string,
      (await add('BULK-3')).id as string,
      (await add('BULK-4')).id as string,
    ];
    const ids = [first, second, third, fourth];
    // Two devices change bucket, one is written with the values it has, one is not touched.
    await t.db
      .updateTable('device')
      .set((eb) => ({
        status: eb.case().when('id', '=', first).then('online').else(eb.ref('status')).end(),
        version: eb.case().when('id', '=', second).then('9.9').else(eb.ref('version')).end(),
      }))
      .where('id', 'in', [first, second, third])
      .execute();
    await expectStatsExact();
    // Changed and changed back in one transaction.
    await t.db.transaction().execute(async (trx) => {
      await trx.updateTable('device').set({ status: 'online' }).where('id', 'in', ids).execute();
      await trx.updateTable('device').set({ status: 'offline' }).where('id', '=', fourth).execute();
    });
    await expectStatsExact();
    await t.db.deleteFrom('device').where('id', 'in', [second, third, fourth]).execute();
    await expectStatsExact();
  });

  /** `device_stats` summed by the list's dimensions equals a count of `device`. */
  async function expectStatsExact() {
    const stats = await t.db
      .selectFrom('device_stats')
      .select(['series', 'status', 'version', 'group_id', 'token_id'])
      .select((eb) => eb.fn.sum<number>('n').as('n'))
      .groupBy(['series', 'status', 'version', 'group_id', 'token_id'])
      .having((eb) => eb.fn.sum('n'), '<>', 0)
      .execute();
    const real = await t.db
      .selectFrom('device')
      .select(['series', 'status', 'version', 'group_id', 'token_id'])
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .groupBy(['series', 'status', 'version', 'group_id', 'token_id'])
      .execute();
    const key = (r: {
      series: string;
      status: string;
      version: string | null;
      group_id: string | null;
      token_id: string;
      n: number;
    }) =>
      `${r.series}|${r.status}|${r.version ?? ''}|${r.group_id ?? ''}|${r.token_id}|${Number(r.n)}`;
    expect(stats.map(key).sort()).toEqual(real.map(key).sort());
  }

  it('enforces the device permissions on the server', async () => {
    const companyC = await t.createCompany('device-c');
    const role = await createRole(t, companyC, DEVICE_PAGES);
    await t.createUser({
      username: 'devviewer',
      password: 'Viewer-Pass-1',
      companyId: companyC,
      roleIds: [role],
    });
    const viewer = client(t, await t.login('devviewer', 'Viewer-Pass-1'));
    const anyId = 'b'.repeat(32);
    expect((await viewer.get('/device/device/list')).statusCode).toBe(200);
    expect((await viewer.get('/device/device/summary')).statusCode).toBe(200);
    for (const res of [
      await viewer.post('/device/device/add', {
        tokenId: anyId,
        sn: 'X',
        name: 'x',
        series: 'R40',
      }),
      await viewer.put('/device/device/edit', {
        id: anyId,
        name: 'x',
        series: 'R40',
        enabled: true,
      }),
      await viewer.del(`/device/device/delete?id=${anyId}`),
      await viewer.put('/device/device/moveToGroup', { ids: [anyId], groupId: null }),
      await viewer.get('/device/device/exportXls'),
      await viewer.post('/device/device/importExcel', {}),
    ]) {
      expect(res.statusCode).toBe(403);
    }
    const noLogs = await createRole(t, companyC, ['device', 'device-list']);
    await t.createUser({
      username: 'devnologs',
      password: 'Nologs-Pass-1',
      companyId: companyC,
      roleIds: [noLogs],
    });
    const nologs = client(t, await t.login('devnologs', 'Nologs-Pass-1'));
    expect((await nologs.get('/device/log/list')).statusCode).toBe(403);
  });
});
