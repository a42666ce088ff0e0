import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  fieldText,
  type TestContext,
} from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import { DELIVERY_JOB, RETRY_DELAYS_MS } from './message-delivery.service.js';
import { isPrivateAddress, refusedUrl } from './webhook-address.rules.js';
import { postWebhook } from './webhook-delivery.service.js';

const EN = { 'accept-language': 'en-US' };
const WEBHOOK = '/api/sys/message/webhook';
const PERMS = [
  'system:message:template:list',
  'system:message:template:add',
  'system:message:template:test',
  'system:message:list',
  'system:message:resend',
  'system:message:webhook:list',
  'system:message:webhook:add',
  'system:message:webhook:edit',
  'system:message:webhook:delete',
  'system:message:webhook:test',
];

/**
 * The verification the docs give receivers: HMAC-SHA256 of `<timestamp>.<raw body>` with the
 * endpoint's secret, compared in constant time, and a timestamp within five minutes.
 */
function verify(
  secret: string,
  headers: http.IncomingHttpHeaders,
  rawBody: string,
  nowSec: number,
) {
  const timestamp = String(headers['x-blrms-timestamp'] ?? '');
  const signature = String(headers['x-blrms-signature'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
  const fresh = Math.abs(nowSec - Number(timestamp)) <= 300;
  const a = Buffer.from(signature);
  const b = Buffer.from(expected);
  return fresh && a.length === b.length && timingSafeEqual(a, b);
}

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A receiver whose answer the test sets: a status, or no answer at all. */
async function receiver() {
  const received: Received[] = [];
  let answer: number | 'hang' = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      if (answer === 'hang') return;
      res.writeHead(answer, { 'content-type': 'text/plain' });
      res.end(answer === 200 ? 'ok' : `receiver broke ${'x'.repeat(500)}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answer: (next: number | 'hang') => (answer = next),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('webhook addresses', () => {
  it('tells private, loopback, link-local and reserved addresses from public ones', () => {
    for (const a of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      'not-an-ip',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8']) {
      expect(isPrivateAddress(a), a).toBe(false);
    }
    expect(refusedUrl('http://example.com/h', false)).toBe('scheme');
    expect(refusedUrl('https://10.0.0.1/h', false)).toBe('private');
    expect(refusedUrl('https://localhost/h', false)).toBe('private');
    expect(refusedUrl('https://u:p@example.com/h', true)).toBe('credentials');
    expect(refusedUrl('https://example.com/h', false)).toBeNull();
    expect(refusedUrl('http://10.0.0.1/h', true)).toBeNull();
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const hook = await receiver();
    hook.answer('hang');
    try {
      const started = Date.now();
      await expect(
        postWebhook({
          url: hook.url,
          body: '{}',
          secret: 's',
          event: 'e',
          timestamp: 1,
          allowPrivate: true,
          timeoutMs: 300,
        }),
      ).rejects.toThrow('timeout after 300 ms');
      expect(Date.now() - started).toBeLessThan(2000);
      // Not allowed: refused before any connection, for an IP and for a name that resolves to one.
      await expect(
        postWebhook({
          url: hook.url,
          body: '{}',
          secret: 's',
          event: 'e',
          timestamp: 1,
          allowPrivate: false,
        }),
      ).rejects.toThrow('refused: plain http is not allowed');
      await expect(
        postWebhook({
          url: 'https://localhost:1/h',
          body: '{}',
          secret: 's',
          event: 'e',
          timestamp: 1,
          allowPrivate: false,
        }),
      ).rejects.toThrow(/refused: localhost resolves to a private address/);
    } finally {
      await hook.close();
    }
  });
});

describe('webhooks', () => {
  let t: TestContext;
  let admin: Record<string, string>;
  let a: { companyId: string; userId: string; headers: Record<string, string> };
  let b: { headers: Record<string, string> };

  type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
  const call = (method: Method, url: string, headers: Record<string, string>, payload?: object) =>
    t.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });
  const ok = async <T>(
    method: Method,
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => {
    const res = await call(method, url, headers, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as T;
  };
  const message = (id: string) =>
    ok<{
      status: string;
      attempts: number;
      lastError: string | null;
      nextAttemptTime: string | null;
    }>('GET', `/api/sys/message/sysMessage/queryById?id=${id}`, a.headers);
  const runJob = () => t.app.scheduler.runNow(DELIVERY_JOB);

  beforeAll(async () => {
    t = await createTestApp();
    admin = authHeaders(await t.login('admin', ADMIN_PASSWORD));
    const companyA = await createCompanyAdmin(t, {
      code: 'WHA',
      username: 'wha',
      password: 'Wha-Pass-1',
      perms: PERMS,
    });
    a = { ...companyA, headers: { ...authHeaders(await t.login('wha', 'Wha-Pass-1')), ...EN } };
    await createCompanyAdmin(t, {
      code: 'WHB',
      username: 'whb',
      password: 'Whb-Pass-1',
      perms: PERMS,
    });
    b = { headers: authHeaders(await t.login('whb', 'Whb-Pass-1')) };
  });
  afterAll(() => t.close());

  it('refuses private networks until a platform administrator allows them', async () => {
    const refused = await call('POST', `${WEBHOOK}/add`, a.headers, {
      name: 'Local',
      url: 'http://127.0.0.1:9/h',
    });
    expect(refused.statusCode).toBe(400);
    expect(fieldText(refused.json())).toMatch(/^url: must be an https URL/);
    const privateIp = await call('POST', `${WEBHOOK}/add`, a.headers, {
      name: 'Lan',
      url: 'https://192.168.1.10/h',
    });
    expect(fieldText(privateIp.json())).toMatch(/^url: must not point to a private/);
    // A company administrator cannot change where webhooks may go: it is the platform's setting.
    expect(
      (await call('PUT', `${WEBHOOK}/network`, a.headers, { allowPrivateNetworks: true }))
        .statusCode,
    ).toBe(403);
    expect(await ok('GET', `${WEBHOOK}/network`, admin)).toEqual({ allowPrivateNetworks: false });
    await ok('PUT', `${WEBHOOK}/network`, admin, { allowPrivateNetworks: true });
  });

  it('signs deliveries so that the receiver can verify them, and shows the secret only once', async () => {
    const hook = await receiver();
    try {
      const added = await ok<{ webhook: { id: string; secretHint: string }; secret: string }>(
        'POST',
        `${WEBHOOK}/add`,
        a.headers,
        { name: 'Ops', url: hook.url },
      );
      expect(added.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const list = await call('GET', `${WEBHOOK}/list`, a.headers);
      expect(list.body).not.toContain(added.secret);
      expect(list.json().result).toEqual([
        expect.objectContaining({ id: added.webhook.id, url: hook.url }),
      ]);
      expect((await call('GET', `${WEBHOOK}/list`, b.headers)).json().result).toEqual([]);
      for (const [method, url, payload] of [
        ['POST', `${WEBHOOK}/test`, { id: added.webhook.id }],
        ['POST', `${WEBHOOK}/rotateSecret`, { id: added.webhook.id }],
        ['PUT', `${WEBHOOK}/edit`, { id: added.webhook.id, name: 'x', url: hook.url }],
      ] as const) {
        expect((await call(method, url, b.headers, payload)).statusCode, url).toBe(404);
      }
      expect(
        (await call('DELETE', `${WEBHOOK}/delete?id=${added.webhook.id}`, b.headers)).statusCode,
      ).toBe(404);

      const tested = await ok<{ status: string; attempts: number }>(
        'POST',
        `${WEBHOOK}/test`,
        a.headers,
        {
          id: added.webhook.id,
        },
      );
      expect(tested).toMatchObject({ status: 'sent', attempts: 1 });
      expect(hook.received).toHaveLength(1);
      const first = hook.received[0]!;
      expect(first.headers['content-type']).toBe('application/json');
      expect(first.headers['x-blrms-event']).toBe('webhook_test');
      expect(verify(added.secret, first.headers, first.body, Math.floor(t.clock.now / 1000))).toBe(
        true,
      );
      expect(
        verify(added.secret, first.headers, `${first.body} `, Math.floor(t.clock.now / 1000)),
      ).toBe(false);
      expect(verify('whsec_other', first.headers, first.body, Math.floor(t.clock.now / 1000))).toBe(
        false,
      );
      expect(JSON.parse(first.body)).toMatchObject({
        event: 'webhook_test',
        companyId: a.companyId,
        title: 'Webhook test',
        vars: {},
      });

      // A company template on the webhook channel goes to every enabled endpoint, signed anew.
      await ok('POST', '/api/sys/message/sysMessageTemplate/add', a.headers, {
        code: 'device_offline',
        name: 'Offline hook',
        channel: 'webhook',
        content: '{{count}} offline: {{devices}}',
        contentEn: '{{count}} offline: {{devices}}',
        testData: { count: 1, devices: 'R40' },
      });
      const rotated = await ok<{ secret: string }>('POST', `${WEBHOOK}/rotateSecret`, a.headers, {
        id: added.webhook.id,
      });
      await t.app.messages.sendTemplate({
        companyId: a.companyId,
        templateCode: 'device_offline',
        receivers: { userIds: [a.userId] },
        vars: { count: 2, devices: 'R40-1, R40-2', seconds: 60 },
      });
      await t.app.messages.close();
      expect(hook.received).toHaveLength(2);
      const second = hook.received[1]!;
      expect(
        verify(rotated.secret, second.headers, second.body, Math.floor(t.clock.now / 1000)),
      ).toBe(true);
      expect(
        verify(added.secret, second.headers, second.body, Math.floor(t.clock.now / 1000)),
      ).toBe(false);
      expect(JSON.parse(second.body)).toMatchObject({
        event: 'device_offline',
        content: '2 offline: R40-1, R40-2',
        vars: { count: 2, devices: 'R40-1, R40-2', seconds: 60 },
      });
      // The bell got its message too: the platform's system template is still inherited.
      const bell = await ok<{ sysMsgList: { titile: string }[] }>(
        'GET',
        '/api/sys/annountCement/listByUser',
        a.headers,
      );
      expect(bell.sysMsgList.map((m) => m.titile)).toEqual(['2 device(s) offline']);
      await ok('DELETE', `${WEBHOOK}/delete?id=${added.webhook.id}`, a.headers);
    } finally {
      await hook.close();
    }
  });

  it('retries a failing receiver with backoff, fails it after five attempts, and resends by hand', async () => {
    const hook = await receiver();
    try {
      const { webhook } = await ok<{ webhook: { id: string } }>(
        'POST',
        `${WEBHOOK}/add`,
        a.headers,
        {
          name: 'Flaky',
          url: hook.url,
        },
      );
      hook.answer(500);
      const first = await ok<{ id: string; status: string; attempts: number; lastError: string }>(
        'POST',
        `${WEBHOOK}/test`,
        a.headers,
        { id: webhook.id },
      );
      expect(first).toMatchObject({ status: 'queued', attempts: 1 });
      // The receiver's answer is kept only as a short excerpt.
      expect(first.lastError).toMatch(/^HTTP 500: receiver broke x+$/);
      expect(first.lastError.length).toBeLessThanOrEqual(220);

      // Not due yet: the job leaves it.
      t.clock.advance(RETRY_DELAYS_MS[0] - 1000);
      await runJob();
      expect(hook.received).toHaveLength(1);
      for (const [index, delay] of RETRY_DELAYS_MS.entries()) {
        const before = await message(first.id);
        expect(Date.parse(before.nextAttemptTime ?? '') - t.clock.now).toBeLessThanOrEqual(delay);
        t.clock.advance(index === 0 ? 1000 : delay);
        await runJob();
        expect(hook.received).toHaveLength(index + 2);
      }
      const failed = await message(first.id);
      expect(failed).toMatchObject({ status: 'failed', attempts: 5, nextAttemptTime: null });
      expect(failed.lastError).toMatch(/^HTTP 500/);
      t.clock.advance(24 * 60 * 60_000);
      await runJob();
      expect(hook.received).toHaveLength(5);

      hook.answer(200);
      const resent = await ok<{ status: string; attempts: number; lastError: string | null }>(
        'POST',
        '/api/sys/message/sysMessage/resend',
        a.headers,
        { id: first.id },
      );
      expect(resent).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
      // Every attempt carried the same message id, for receivers to drop duplicates.
      expect(new Set(hook.received.map((r) => (JSON.parse(r.body) as { id: string }).id))).toEqual(
        new Set([first.id]),
      );
      await ok('DELETE', `${WEBHOOK}/delete?id=${webhook.id}`, a.headers);
    } finally {
      await hook.close();
    }
  });

  it('records a refused connection, and refuses private addresses once the setting is off again', async () => {
    const hook = await receiver();
    const url = hook.url;
    await hook.close();
    const { webhook } = await ok<{ webhook: { id: string } }>('POST', `${WEBHOOK}/add`, a.headers, {
      name: 'Gone',
      url,
    });
    const refused = await ok<{ status: string; lastError: string }>(
      'POST',
      `${WEBHOOK}/test`,
      a.headers,
      {
        id: webhook.id,
      },
    );
    expect(refused.status).toBe('queued');
    expect(refused.lastError).toMatch(/ECONNREFUSED/);

    await ok('PUT', `${WEBHOOK}/network`, admin, { allowPrivateNetworks: false });
    t.clock.advance(RETRY_DELAYS_MS[0]);
    await runJob();
    const list = await ok<{ records: { id: string; status: string; lastError: string }[] }>(
      'GET',
      '/api/sys/message/sysMessage/list?channel=webhook&status=failed',
      a.headers,
    );
    // Refused by policy: failed at once, no more retries.
    expect(list.records.find((r) => r.lastError.startsWith('refused'))).toMatchObject({
      status: 'failed',
      lastError: 'refused: plain http is not allowed',
    });
  });
});
