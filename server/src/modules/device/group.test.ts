import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID } from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext, fieldText } from '../../test/app.js';
import { client, createRole, type Client } from '../../test/devices.js';

describe('device groups', () => {
  let t: TestContext;
  let admin: Client;
  let bossB: Client;
  let tokenId: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const companyB = await t.createCompany('group-b');
    await t.createUser({
      username: 'groupbossb',
      password: 'Boss-B-Pass-1',
      companyId: companyB,
      roleIds: [ADMIN_ROLE_ID],
    });
    bossB = client(t, await t.login('groupbossb', 'Boss-B-Pass-1'));
    tokenId = (await admin.ok('POST', '/device/token/add', { name: 'groups' })).id;
  });
  afterAll(() => t.close());

  const addDevice = (sn: string, groupId: string | null) =>
    admin.ok('POST', '/device/device/add', { tokenId, sn, name: sn, series: 'BL10X', groupId });

  it('creates groups with unique names per company', async () => {
    const group = await admin.ok('POST', '/device/group/add', { name: 'North', remark: 'n' });
    expect(group).toMatchObject({ name: 'North', remark: 'n', deviceCount: 0 });
    const dup = await admin.post('/device/group/add', { name: 'North' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe('Group name already exists!');
    // Another company may use the same name.
    expect((await bossB.post('/device/group/add', { name: 'North' })).statusCode).toBe(200);

    const other = await admin.ok('POST', '/device/group/add', { name: 'South' });
    const rename = await admin.put('/device/group/edit', { id: other.id, name: 'North' });
    expect(rename.statusCode).toBe(409);
    const renamed = await admin.ok('PUT', '/device/group/edit', { id: other.id, name: 'West' });
    expect(renamed.name).toBe('West');
  });

  it('counts its devices by status', async () => {
    const group = await admin.ok('POST', '/device/group/add', { name: 'Counted' });
    const online = await addDevice('GRP-1', group.id);
    await addDevice('GRP-2', group.id);
    await addDevice('GRP-3', null);
    // The MQTT gateway writes the status.
    await t.db
      .updateTable('device')
      .set({ status: 'online' })
      .where('id', '=', online.id)
      .execute();
    const counted = await admin.ok('GET', `/device/group/queryById?id=${group.id}`);
    expect(counted).toMatchObject({ deviceCount: 2, onlineCount: 1, offlineCount: 1 });
    const page = await admin.ok('GET', '/device/group/list?name=Count');
    expect(page.records).toEqual([expect.objectContaining({ id: group.id, deviceCount: 2 })]);
    const options = await admin.ok('GET', '/device/group/queryall');
    expect(options.map((o: { name: string }) => o.name)).toEqual(
      expect.arrayContaining(['Counted', 'North', 'West']),
    );
  });

  it('leaves the devices of a deleted group ungrouped', async () => {
    const group = await admin.ok('POST', '/device/group/add', { name: 'Doomed' });
    const device = await addDevice('GRP-DOOMED', group.id);
    expect((await admin.ok('DELETE', `/device/group/delete?id=${group.id}`)).count).toBe(1);
    const after = await admin.ok('GET', `/device/device/queryById?id=${device.id}`);
    expect(after).toMatchObject({ groupId: null, groupName: null });
    const ungrouped = await admin.ok('GET', '/device/device/list?groupId=none&sn=GRP-DOOMED');
    expect(ungrouped.total).toBe(1);
  });

  it('keeps groups inside their company', async () => {
    const group = await admin.ok('POST', '/device/group/add', { name: 'Mine' });
    for (const res of [
      await bossB.get(`/device/group/queryById?id=${group.id}`),
      await bossB.put('/device/group/edit', { id: group.id, name: 'Stolen' }),
      await bossB.del(`/device/group/delete?id=${group.id}`),
      await bossB.del(`/device/group/deleteBatch?ids=${group.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    const options = await bossB.ok('GET', '/device/group/queryall');
    expect(options.map((o: { name: string }) => o.name)).toEqual(['North']);
    // Nor can a device of company B join it.
    const tokenB = await bossB.ok('POST', '/device/token/add', { name: 'b' });
    const res = await bossB.post('/device/device/add', {
      tokenId: tokenB.id,
      sn: 'B-1',
      name: 'b',
      series: 'R40',
      groupId: group.id,
    });
    expect(res.statusCode).toBe(404);
    expect(fieldText(res.json())).toBe('groupId: group not found');
  });

  it('needs group:list or device:list for the group options, and the buttons to change', async () => {
    const companyC = await t.createCompany('group-c');
    const none = await createRole(t, companyC, ['dashboard-analysis']);
    await t.createUser({
      username: 'groupnobody',
      password: 'Nobody-Pass-1',
      companyId: companyC,
      roleIds: [none],
    });
    const nobody = client(t, await t.login('groupnobody', 'Nobody-Pass-1'));
    expect((await nobody.get('/device/group/queryall')).statusCode).toBe(403);
    expect((await nobody.get('/device/group/list')).statusCode).toBe(403);

    const deviceOnly = await createRole(t, companyC, ['device', 'device-list']);
    await t.createUser({
      username: 'groupdevice',
      password: 'Device-Pass-1',
      companyId: companyC,
      roleIds: [deviceOnly],
    });
    const devices = client(t, await t.login('groupdevice', 'Device-Pass-1'));
    expect((await devices.get('/device/group/queryall')).statusCode).toBe(200);
    expect((await devices.get('/device/group/list')).statusCode).toBe(403);
    expect((await devices.post('/device/group/add', { name: 'x' })).statusCode).toBe(403);
  });
});
