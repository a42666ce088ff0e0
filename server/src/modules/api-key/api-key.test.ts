import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { permissionId } from '../../db/seed/seed.js';
import {
  ADMIN_PASSWORD,
  PLATFORM_ID,
  authHeaders,
  createTestApp,
  fieldText,
  type TestContext,
} from '../../test/app.js';
import { createCompanyAdmin, createRole } from '../../test/company-admin.js';

const DAY = 24 * 60 * 60 * 1000;

interface Created {
  key: string;
  apiKey: { id: string; prefix: string; permissions: string[]; status: string };
}

describe('personal API keys', () => {
  let t: TestContext;
  let admin: string;
  let companyA: string;
  let bossA: string;
  let worker: string;
  let workerId: string;
  let workerRole: string;
  let bossB: string;

  beforeAll(async () => {
    t = await createTestApp();
    const a = await createCompanyAdmin(t, {
      code: 'key-a',
      username: 'bossa',
      password: 'Boss-A-Pass-1',
      perms: [
        'apikey:own',
        'apikey:admin',
        'device:list',
        'system:log:list',
        'account:user:list',
        'account:user:freeze',
        'account:user:delete',
      ],
    });
    companyA = a.companyId;
    workerRole = await createRole(t, companyA, 'worker', [
      'apikey:own',
      'device:list',
      'system:log:list',
    ]);
    workerId = await t.createUser({
      username: 'worker',
      password: 'Worker-Pass-1',
      companyId: companyA,
      roleIds: [workerRole],
    });
    await createCompanyAdmin(t, {
      code: 'key-b',
      username: 'bossb',
      password: 'Boss-B-Pass-1',
      perms: ['apikey:own', 'apikey:admin', 'system:log:list'],
    });
    admin = await t.login('admin', ADMIN_PASSWORD);
    bossA = await t.login('bossa', 'Boss-A-Pass-1');
    worker = await t.login('worker', 'Worker-Pass-1');
    bossB = await t.login('bossb', 'Boss-B-Pass-1');
  });
  afterAll(() => t.close());

  const expiry = (days = 30) => new Date(t.clock.now + days * DAY).toISOString();

  const create = (token: string, body: Record<string, unknown>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sys/apiKey/add',
      headers: authHeaders(token, { 'accept-language': 'en-US' }),
      payload: body,
    });

  async function newKey(token: string, permissions: string[], name = 'script'): Promise<Created> {
    const res = await create(token, { name, expireTime: expiry(), permissions });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as Created;
  }

  const withKey = (url: string, key: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { 'x-api-key': key, 'accept-language': 'en-US', ...headers },
    });

  const listOwn = async (token: string) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sys/apiKey/list',
      headers: authHeaders(token),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as Record<string, unknown>[];
  };

  it('creates a key with a subset of the permissions, shown once and stored hashed', async () => {
    const { key, apiKey } = await newKey(worker, ['device:list'], 'inventory');
    expect(key).toMatch(/^blrms_[0-9a-f]{32}_[A-Za-z0-9_-]{43}$/);
    expect(key.startsWith(`${apiKey.prefix}_`)).toBe(true);
    expect(apiKey).toMatchObject({ permissions: ['device:list'], status: 'active' });

    const listed = await listOwn(worker);
    expect(listed.map((k) => k.name)).toContain('inventory');
    expect(JSON.stringify(listed)).not.toContain(key.split('_').pop());
    const row = await t.db
      .selectFrom('sys_api_key')
      .selectAll()
      .where('id', '=', apiKey.id)
      .executeTakeFirstOrThrow();
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(key.split('_').pop());
  });

  it('refuses a permission the user does not hold, naming it', async () => {
    for (const lang of ['en-US', 'zh-CN'] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sys/apiKey/add',
        headers: authHeaders(worker, { 'accept-language': lang }),
        payload: {
          name: 'greedy',
          expireTime: expiry(),
          permissions: ['device:list', 'account:user:delete'],
        },
      });
      expect(res.statusCode).toBe(403);
      expect(fieldText(res.json())).toContain('account:user:delete');
    }
    expect((await listOwn(worker)).map((k) => k.name)).not.toContain('greedy');
  });

  it('refuses bad input by field: no name, no permission, past or too distant expiry', async () => {
    const missing = await create(worker, { name: '', permissions: [] });
    expect(missing.statusCode).toBe(400);
    const fields = (missing.json().errors as { field: string }[]).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(['name', 'expireTime', 'permissions']));

    const past = await create(worker, {
      name: 'x',
      expireTime: new Date(t.clock.now - 1000).toISOString(),
      permissions: ['device:list'],
    });
    expect(past.statusCode).toBe(400);
    expect(fieldText(past.json())).toBe('expireTime: must be in the future');

    const late = await create(worker, {
      name: 'x',
      expireTime: expiry(400),
      permissions: ['device:list'],
    });
    expect(late.statusCode).toBe(400);
    expect(fieldText(late.json())).toBe('expireTime: must be at most 365 days from now');
  });

  it('acts as the user with X-Api-Key or Authorization: Bearer', async () => {
    const { key } = await newKey(worker, ['device:list']);
    const viaHeader = await withKey('/api/device/device/list', key);
    expect(viaHeader.statusCode, viaHeader.body).toBe(200);
    const viaBearer = await t.app.inject({
      method: 'GET',
      url: '/api/device/device/list',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(viaBearer.statusCode).toBe(200);

    const wrongSecret = await withKey('/api/device/device/list', `${key.slice(0, -4)}AAAA`);
    expect(wrongSecret.statusCode).toBe(401);
    expect(wrongSecret.json().message).toBe('Invalid API key');
    expect((await withKey('/api/device/device/list', 'blrms_nonsense')).statusCode).toBe(401);
  });

  it('refuses a permission outside the key although the user holds it', async () => {
    const { key } = await newKey(worker, ['device:list']);
    const res = await withKey('/api/sys/log/list', key);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('The API key does not hold the permission system:log:list');
    // The session of the same user may.
    const session = await t.app.inject({
      method: 'GET',
      url: '/api/sys/log/list',
      headers: authHeaders(worker),
    });
    expect(session.statusCode).toBe(200);

    // What the key may do, as the console's permission call reports it: the key's codes only,
    // before and after the user's own (wider) menu was built and cached, and neither result
    // served for the other.
    const sessionCodes = async () => {
      const own = await t.app.inject({
        method: 'GET',
        url: '/api/sys/permission/getUserPermissionByToken',
        headers: authHeaders(worker),
      });
      return (own.json().result.auth as { action: string }[]).map((a) => a.action);
    };
    expect(await sessionCodes()).toContain('system:log:list');
    const perms = await withKey('/api/sys/permission/getUserPermissionByToken', key);
    expect(perms.statusCode).toBe(200);
    const codes = (perms.json().result.auth as { action: string }[]).map((a) => a.action);
    expect([...new Set(codes)]).toEqual(['device:list']);
    expect(await sessionCodes()).toContain('system:log:list');
  });

  it('loses a permission the user loses', async () => {
    const { key } = await newKey(worker, ['device:list', 'system:log:list']);
    expect((await withKey('/api/sys/log/list', key)).statusCode).toBe(200);
    await t.db
      .deleteFrom('sys_role_permission')
      .where('role_id', '=', workerRole)
      .where('permission_id', '=', permissionId('system-log'))
      .execute();
    await t.bus.publish('auth.permissions-changed', { userId: workerId });
    expect((await withKey('/api/sys/log/list', key)).statusCode).toBe(403);
    expect((await withKey('/api/device/device/list', key)).statusCode).toBe(200);
    await t.db
      .insertInto('sys_role_permission')
      .values({
        role_id: workerRole,
        permission_id: permissionId('system-log'),
        data_rule_ids: null,
      })
      .execute();
    await t.bus.publish('auth.permissions-changed', { userId: workerId });
  });

  it('refuses an expired key with a clear message', async () => {
    const res = await create(worker, {
      name: 'short',
      expireTime: new Date(t.clock.now + 60_000).toISOString(),
      permissions: ['device:list'],
    });
    const { key, apiKey } = res.json().result as Created;
    expect((await withKey('/api/device/device/list', key)).statusCode).toBe(200);
    t.clock.advance(61_000);
    const expired = await withKey('/api/device/device/list', key, { 'accept-language': 'en-US' });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().message).toMatch(/^This API key expired at \d{4}-.*; create a new one$/);
    const zh = await withKey('/api/device/device/list', key, { 'accept-language': 'zh-CN' });
    expect(zh.json().message).toContain('过期');
    const listed = (await listOwn(worker)).find((k) => k.id === apiKey.id);
    expect(listed?.status).toBe('expired');
  });

  it('refuses a revoked key', async () => {
    const { key, apiKey } = await newKey(worker, ['device:list']);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/sys/apiKey/revoke?id=${apiKey.id}`,
      headers: authHeaders(worker),
    });
    expect(revoke.statusCode).toBe(200);
    const res = await withKey('/api/device/device/list', key);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('This API key has been revoked');
    const listed = (await listOwn(worker)).find((k) => k.id === apiKey.id);
    expect(listed).toMatchObject({ status: 'revoked', revokeReason: 'user' });

    // Another user's key is not the caller's to revoke.
    const theirs = await newKey(bossA, ['device:list']);
    const foreign = await t.app.inject({
      method: 'DELETE',
      url: `/api/sys/apiKey/revoke?id=${theirs.apiKey.id}`,
      headers: authHeaders(worker),
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('cannot manage keys, change the password or act in another company with a key', async () => {
    const { key } = await newKey(bossA, ['apikey:own', 'device:list']);
    const add = await t.app.inject({
      method: 'POST',
      url: '/api/sys/apiKey/add',
      headers: { 'x-api-key': key, 'accept-language': 'en-US' },
      payload: { name: 'child', expireTime: expiry(), permissions: ['device:list'] },
    });
    expect(add.statusCode).toBe(403);
    expect(add.json().message).toBe('API keys cannot be used for this operation; sign in instead');
    expect((await withKey('/api/sys/apiKey/list', key)).statusCode).toBe(403);
    const password = await t.app.inject({
      method: 'PUT',
      url: '/api/sys/user/updatePassword',
      headers: { 'x-api-key': key },
      payload: { oldpassword: 'Boss-A-Pass-1', password: 'New-Pass-123', confirmpassword: 'x' },
    });
    expect(password.statusCode).toBe(403);

    // Not even another user's password, with a key that holds the code.
    const reset = await newKey(admin, ['account:user:resetPassword']);
    const theirs = await t.app.inject({
      method: 'PUT',
      url: '/api/sys/user/changePassword',
      headers: { 'x-api-key': reset.key, 'accept-language': 'en-US' },
      payload: {
        username: 'worker',
        password: 'Hijacked-Pass-1',
        confirmpassword: 'Hijacked-Pass-1',
      },
    });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().message).toBe(
      'API keys cannot be used for this operation; sign in instead',
    );
    const other = await withKey('/api/device/device/list', key, { 'x-company-id': PLATFORM_ID });
    expect(other.statusCode).toBe(403);
  });

  it('writes every call made with a key to the operation log under the user', async () => {
    const { key } = await newKey(worker, ['device:list'], 'nightly-sync');
    expect((await withKey('/api/device/device/list?pageNo=1', key)).statusCode).toBe(200);
    // The row is written after the response, and earlier tests made the same call with other
    // keys: wait for the row of this key.
    const row = await vi.waitFor(async () => {
      const found = await t.db
        .selectFrom('sys_log')
        .selectAll()
        .where('user_id', '=', workerId)
        .where('request_url', '=', '/api/device/device/list')
        .where('log_content', 'like', '%nightly-sync%')
        .executeTakeFirst();
      if (!found) throw new Error('not logged yet');
      return found;
    });
    expect(row).toMatchObject({ username: 'worker', company_id: companyA, method: 'GET' });
    const logs = await t.app.inject({
      method: 'GET',
      // Found by the key's name: among all of the company's log rows, which share the test clock's
      // time, the newest are not the first by any order.
      url: '/api/sys/log/list?logType=2&pageSize=100&keyWord=nightly-sync',
      headers: authHeaders(bossA, { 'accept-language': 'en-US' }),
    });
    const contents = (logs.json().result.records as { logContent: string; username: string }[])
      .filter((r) => r.username === 'worker')
      .map((r) => r.logContent);
    expect(contents).toContain('Queried device (API key: nightly-sync)');
  });

  it('records when and from where a key was last used', async () => {
    const { key, apiKey } = await newKey(worker, ['device:list']);
    expect((await listOwn(worker)).find((k) => k.id === apiKey.id)?.lastUsedTime).toBeNull();
    await withKey('/api/device/device/list', key);
    const used = (await listOwn(worker)).find((k) => k.id === apiKey.id);
    expect(used?.lastUsedTime).toBe(new Date(t.clock.now).toISOString());
    expect(used?.lastUsedIp).toBe('127.0.0.1');
  });

  it('keeps tenants apart: keys act in their company, admins see their company only', async () => {
    const { key, apiKey } = await newKey(worker, ['system:log:list']);
    const logs = await withKey('/api/sys/log/list?pageSize=100', key);
    expect(logs.statusCode).toBe(200);
    const users = new Set(
      (logs.json().result.records as { username: string }[]).map((r) => r.username),
    );
    expect([...users].every((u) => ['worker', 'bossa'].includes(u))).toBe(true);

    const listAll = (token: string) =>
      t.app.inject({ method: 'GET', url: '/api/sys/apiKey/listAll', headers: authHeaders(token) });
    const ofA = (await listAll(bossA)).json().result as { id: string }[];
    expect(ofA.map((k) => k.id)).toContain(apiKey.id);
    const ofB = (await listAll(bossB)).json().result as { id: string }[];
    expect(ofB.map((k) => k.id)).not.toContain(apiKey.id);
    const ofPlatform = (await listAll(admin)).json().result as { id: string }[];
    expect(ofPlatform.map((k) => k.id)).toContain(apiKey.id);

    const adminRevoke = (token: string) =>
      t.app.inject({
        method: 'DELETE',
        url: `/api/sys/apiKey/adminRevoke?id=${apiKey.id}`,
        headers: authHeaders(token),
      });
    expect((await adminRevoke(bossB)).statusCode).toBe(404);
    expect((await withKey('/api/sys/log/list', key)).statusCode).toBe(200);
    expect((await adminRevoke(bossA)).statusCode).toBe(200);
    expect((await withKey('/api/sys/log/list', key)).statusCode).toBe(401);
    const after = (await listOwn(worker)).find((k) => k.id === apiKey.id);
    expect(after).toMatchObject({ status: 'revoked', revokeReason: 'admin' });
  });

  it('refuses calls while the company is frozen', async () => {
    const { key } = await newKey(bossA, ['device:list']);
    const freeze = (status: number) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/sys/company/frozen',
        headers: authHeaders(admin),
        payload: { id: companyA, status },
      });
    expect((await freeze(2)).statusCode).toBe(200);
    const res = await withKey('/api/device/device/list', key);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(
      'This company is frozen: its API keys are refused until it is unfrozen',
    );
    expect((await freeze(1)).statusCode).toBe(200);
    expect((await withKey('/api/device/device/list', key)).statusCode).toBe(200);
    bossA = await t.login('bossa', 'Boss-A-Pass-1');
    worker = await t.login('worker', 'Worker-Pass-1');
  });

  it('revokes the keys of a user who is frozen, for good', async () => {
    const { key, apiKey } = await newKey(worker, ['device:list']);
    const freeze = (status: number) =>
      t.app.inject({
        method: 'PUT',
        url: '/api/sys/user/frozenBatch',
        headers: authHeaders(bossA),
        payload: { ids: workerId, status: String(status) },
      });
    expect((await freeze(2)).statusCode).toBe(200);
    const res = await withKey('/api/device/device/list', key);
    expect(res.statusCode).toBe(401);
    const row = await t.db
      .selectFrom('sys_api_key')
      .select(['revoke_time', 'revoke_reason'])
      .where('id', '=', apiKey.id)
      .executeTakeFirstOrThrow();
    expect(row.revoke_reason).toBe('frozen');
    expect(row.revoke_time).not.toBeNull();

    expect((await freeze(1)).statusCode).toBe(200);
    const again = await withKey('/api/device/device/list', key);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe('This API key has been revoked');
    worker = await t.login('worker', 'Worker-Pass-1');
  });

  it('declares the key headers as security schemes in the OpenAPI document', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    const doc = res.json() as {
      components: { securitySchemes: Record<string, Record<string, string>> };
      security: Record<string, string[]>[];
    };
    expect(doc.components.securitySchemes.apiKey).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-Api-Key',
    });
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual(expect.arrayContaining([{ apiKey: [] }, { bearer: [] }]));
  });

  it('rate limits each key', async () => {
    const limited = await createTestApp({ env: { API_KEY_RATE_LIMIT: '3' } });
    try {
      const token = await limited.login('admin', ADMIN_PASSWORD);
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/sys/apiKey/add',
        headers: authHeaders(token),
        payload: {
          name: 'busy',
          expireTime: new Date(limited.clock.now + DAY).toISOString(),
          permissions: ['system:log:list'],
        },
      });
      const { key } = res.json().result as Created;
      const call = (lang = 'en-US') =>
        limited.app.inject({
          method: 'GET',
          url: '/api/sys/log/list',
          headers: { 'x-api-key': key, 'accept-language': lang },
        });
      for (let i = 0; i < 3; i++) expect((await call()).statusCode).toBe(200);
      const refused = await call();
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.json().message).toBe(
        'Too many calls with this API key; try again in 60 seconds',
      );
      expect((await call('zh-CN')).json().message).toContain('过于频繁');
      limited.clock.advance(60_000);
      expect((await call()).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('revokes the keys of a deleted user', async () => {
    const { key, apiKey } = await newKey(worker, ['device:list']);
    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/sys/user/delete?id=${workerId}`,
      headers: authHeaders(bossA),
    });
    expect(res.statusCode, res.body).toBe(200);
    const call = await withKey('/api/device/device/list', key);
    expect(call.statusCode).toBe(401);
    const row = await t.db
      .selectFrom('sys_api_key')
      .select('revoke_reason')
      .where('id', '=', apiKey.id)
      .executeTakeFirstOrThrow();
    expect(row.revoke_reason).toBe('deleted');
  });
});
