import { WS_TOKEN_PROTOCOL } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, authHeaders, createTestApp, type TestContext } from '../../test/app.js';
import { createRole } from '../../test/devices.js';

interface Row {
  id: string;
  username: string;
  companyName: string;
  current: boolean;
  ip: string | null;
  loginTime: string;
}

describe('online users', () => {
  let t: TestContext;
  let admin: string;
  let base: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login('admin', ADMIN_PASSWORD);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    base = `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  });
  afterAll(() => t.close());

  const list = async (query = '', token = admin) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/sys/online/list?pageSize=100${query}`,
      headers: authHeaders(token),
    });
    return res;
  };
  const forceLogout = (id: string, token = admin) =>
    t.app.inject({
      method: 'POST',
      url: '/api/sys/online/forceLogout',
      headers: authHeaders(token, { 'accept-language': 'en-US' }),
      payload: { id },
    });

  it('lists the live sessions of every company, the caller marked', async () => {
    const companyId = await t.createCompany('online-c');
    await t.createUser({ username: 'remote1', password: 'Remote-Pass-1', companyId });
    await t.login('remote1', 'Remote-Pass-1');
    const res = await list();
    expect(res.statusCode).toBe(200);
    const rows = res.json().result.records as Row[];
    expect(rows.find((r) => r.username === 'remote1')).toMatchObject({
      companyName: 'Company online-c',
      current: false,
    });
    expect(rows.filter((r) => r.current).map((r) => r.username)).toEqual(['admin']);
    // A username filter; % is a literal character, not a wildcard.
    const filtered = (await list('&username=REMOTE')).json().result;
    expect(filtered.records.map((r: Row) => r.username)).toEqual(['remote1']);
    expect((await list('&username=%25')).json().result.total).toBe(0);
  });

  it('force logout ends the session on the API and closes its console sockets', async () => {
    await t.createUser({ username: 'victim', password: 'Victim-Pass-1' });
    const login = (await t.loginResponse('victim', 'Victim-Pass-1')).json().result;
    const victim = login.token as string;
    const userId = login.userInfo.id as string;
    const socket = new WebSocket(`${base}/api/websocket/${userId}`, [WS_TOKEN_PROTOCOL, victim]);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const closed = new Promise<number>((resolve) => socket.once('close', resolve));

    const row = ((await list('&username=victim')).json().result.records as Row[])[0]!;
    const res = await forceLogout(row.id);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Signed out');
    expect(await closed).toBe(4401);
    const after = await t.app.inject({
      method: 'GET',
      url: '/api/sys/user/getCurrentUserDeparts',
      headers: authHeaders(victim),
    });
    expect(after.statusCode).toBe(401);
    expect((await list('&username=victim')).json().result.total).toBe(0);
    // Ended already: the same answer as a session that never existed.
    expect((await forceLogout(row.id)).statusCode).toBe(404);
    expect((await forceLogout('0123456789abcdef0123456789abcdef')).statusCode).toBe(404);
  });

  it('refuses the caller’s own session, bad ids and anyone but platform administrators', async () => {
    const own = ((await list()).json().result.records as Row[]).find((r) => r.current)!;
    const self = await forceLogout(own.id);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toMatch(/own current session/);

    const bad = await forceLogout('not-an-id');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('id');

    const roleId = await createRole(t, PLATFORM_COMPANY_ID, [
      'system',
      'system-online-user',
      'system:online:forceLogout',
    ]);
    await t.createUser({ username: 'helpdesk', password: 'Helpdesk-Pass-1', roleIds: [roleId] });
    const helpdesk = await t.login('helpdesk', 'Helpdesk-Pass-1');
    expect((await list('', helpdesk)).statusCode).toBe(403);
    expect((await forceLogout(own.id, helpdesk)).statusCode).toBe(403);
    await t.createUser({ username: 'plain', password: 'Plain-Pass-1' });
    const plain = await t.login('plain', 'Plain-Pass-1');
    expect((await list('', plain)).statusCode).toBe(403);
    expect((await forceLogout(own.id, plain)).statusCode).toBe(403);
    // The administrator's session survived all of it.
    expect((await list()).statusCode).toBe(200);
  });
});
