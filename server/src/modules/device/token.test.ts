import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID } from '../../db/seed/seed.js';
import { sha256 } from '../../platform/auth/tokens.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext, fieldText } from '../../test/app.js';
import { DEVICE_PAGES, client, createRole, type Client } from '../../test/devices.js';

describe('device token keys', () => {
  let t: TestContext;
  let admin: Client;
  let bossB: Client;
  let viewer: Client;
  beforeAll(async () => {
    t = await createTestApp();
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const companyB = await t.createCompany('token-b');
    await t.createUser({
      username: 'tokenbossb',
      password: 'Boss-B-Pass-1',
      companyId: companyB,
      roleIds: [ADMIN_ROLE_ID],
    });
    bossB = client(t, await t.login('tokenbossb', 'Boss-B-Pass-1'));
    const companyC = await t.createCompany('token-c');
    // Pages only: may list tokens, but has no button permission.
    const role = await createRole(t, companyC, DEVICE_PAGES);
    await t.createUser({
      username: 'tokenviewer',
      password: 'Viewer-Pass-1',
      companyId: companyC,
      roleIds: [role],
    });
    viewer = client(t, await t.login('tokenviewer', 'Viewer-Pass-1'));
  });
  afterAll(() => t.close());

  it('creates a token with a 256-bit key shown once, masked afterwards', async () => {
    const created = await admin.ok('POST', '/device/token/add', {
      name: 'Factory A',
      remark: 'line 1',
      autoRegister: false,
    });
    expect(created.tokenKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(created.tokenKey, 'base64url')).toHaveLength(32);
    expect(created.code).toMatch(/^[A-Z2-7]{8}$/);
    expect(created).toMatchObject({
      name: 'Factory A',
      remark: 'line 1',
      autoRegister: false,
      enabled: true,
      ownerName: 'admin',
      deviceCount: 0,
    });
    expect(created.tokenKeyMasked).toBe(
      `${created.tokenKey.slice(0, 4)}********${created.tokenKey.slice(-4)}`,
    );

    const listed = await admin.ok('GET', '/device/token/list?name=Factory');
    expect(listed.total).toBe(1);
    expect(listed.records[0]).not.toHaveProperty('tokenKey');
    expect(JSON.stringify(listed)).not.toContain(created.tokenKey);

    const revealed = await admin.ok('GET', `/device/token/revealKey?id=${created.id}`);
    expect(revealed.tokenKey).toBe(created.tokenKey);

    // The broker will find the token by the key's hash.
    const row = await t.db
      .selectFrom('device_token')
      .select('key_hash')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(sha256(created.tokenKey));
  });

  it('edits, disables and regenerates a token', async () => {
    const created = await admin.ok('POST', '/device/token/add', { name: 'Edit me' });
    const edited = await admin.ok('PUT', '/device/token/edit', {
      id: created.id,
      name: 'Edited',
      remark: null,
      autoRegister: false,
      enabled: false,
    });
    expect(edited).toMatchObject({ name: 'Edited', enabled: false, autoRegister: false });
    const disabled = await admin.ok('GET', '/device/token/list?enabled=false');
    expect(disabled.records.map((r: { id: string }) => r.id)).toContain(created.id);

    const { tokenKey } = await admin.ok('PUT', '/device/token/regenerate', { id: created.id });
    expect(tokenKey).not.toBe(created.tokenKey);
    expect((await admin.ok('GET', `/device/token/revealKey?id=${created.id}`)).tokenKey).toBe(
      tokenKey,
    );
  });

  it('refuses to delete a token that devices use, with their count', async () => {
    const token = await admin.ok('POST', '/device/token/add', { name: 'In use' });
    await admin.ok('POST', '/device/device/add', {
      tokenId: token.id,
      sn: 'TOKEN-DEV-1',
      name: 'dev',
      series: 'R40',
    });
    const res = await admin.del(`/device/token/delete?id=${token.id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(
      '1 devices still use this token key: delete them or move them to another token first',
    );
    expect((await admin.ok('GET', `/device/token/queryById?id=${token.id}`)).deviceCount).toBe(1);

    const spare = await admin.ok('POST', '/device/token/add', { name: 'Spare' });
    expect(
      (await admin.del(`/device/token/deleteBatch?ids=${spare.id},${token.id}`)).statusCode,
    ).toBe(409);
    expect((await admin.get(`/device/token/queryById?id=${spare.id}`)).statusCode).toBe(200);
    expect((await admin.ok('DELETE', `/device/token/delete?id=${spare.id}`)).count).toBe(1);
    expect((await admin.get(`/device/token/queryById?id=${spare.id}`)).statusCode).toBe(404);
  });

  it('keeps tokens inside their company', async () => {
    const token = await admin.ok('POST', '/device/token/add', { name: 'Platform only' });
    expect((await bossB.ok('GET', '/device/token/list')).total).toBe(0);
    for (const res of [
      await bossB.get(`/device/token/queryById?id=${token.id}`),
      await bossB.get(`/device/token/revealKey?id=${token.id}`),
      await bossB.put('/device/token/regenerate', { id: token.id }),
      await bossB.put('/device/token/edit', {
        id: token.id,
        name: 'x',
        autoRegister: true,
        enabled: true,
      }),
      await bossB.del(`/device/token/delete?id=${token.id}`),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await admin.ok('GET', `/device/token/queryById?id=${token.id}`)).name).toBe(
      'Platform only',
    );
  });

  it('enforces the button permissions on the server', async () => {
    expect((await viewer.get('/device/token/list')).statusCode).toBe(200);
    expect((await viewer.post('/device/token/add', { name: 'nope' })).statusCode).toBe(403);
    const anyId = 'a'.repeat(32);
    expect((await viewer.get(`/device/token/revealKey?id=${anyId}`)).statusCode).toBe(403);
    expect((await viewer.put('/device/token/regenerate', { id: anyId })).statusCode).toBe(403);
    expect((await viewer.del(`/device/token/delete?id=${anyId}`)).statusCode).toBe(403);
  });

  it.each([
    ['/device/token/add', { name: '' }, /^name: /],
    ['/device/token/add', { name: 'x', extra: 1 }, /extra is not an allowed field/],
    ['/device/token/add', { name: 'x'.repeat(65) }, /^name: must be at most 64 characters/],
  ])('refuses bad input %s %j', async (url, payload, expected) => {
    const res = await admin.post(url, payload);
    expect(res.statusCode).toBe(400);
    expect(fieldText(res.json())).toMatch(expected);
  });

  it.each(['column=updatexml(1,concat(0x7e,user(),0x7e),1)', 'order=desc%3Bdrop%20table%20x'])(
    'refuses sort injection %s',
    async (query) => {
      expect((await admin.get(`/device/token/list?${query}`)).statusCode).toBe(400);
    },
  );
});
