import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  fieldText,
  type TestContext,
} from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import { outboxFor } from '../../test/outbox.js';
import { render, substitute, undeclaredVariables } from './message-render.rules.js';

const EN = { 'accept-language': 'en-US' };
const TEMPLATE = '/api/sys/message/sysMessageTemplate';
const MESSAGE = '/api/sys/message/sysMessage';
const PERMS = [
  'system:message:template:list',
  'system:message:template:add',
  'system:message:template:edit',
  'system:message:template:delete',
  'system:message:template:test',
  'system:message:list',
  'system:message:resend',
  'system:message:webhook:list',
];

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
interface Template {
  id: string;
  code: string;
  channel: string;
  inherited: boolean;
  builtIn: boolean;
  subject: string;
  content: string;
}
interface Message {
  id: string;
  channel: string;
  receiver: string;
  title: string;
  content: string;
  status: string;
  attempts: number;
  lastError: string | null;
  templateCode: string | null;
}

describe('rendering', () => {
  it('replaces declared variables, leaves unknown ones visible and never expands a value', () => {
    expect(substitute('Hi {{ name }}, {{missing}}', { name: '{{missing}}' }, (v) => v)).toBe(
      'Hi {{missing}}, {{missing}}',
    );
    const system = render('system', { subject: 'A\n{{x}}', content: '{{x}}\nline' }, { x: '<b>&' });
    expect(system).toEqual({ title: 'A <b>&', content: '<p>&lt;b&gt;&amp;<br>line</p>' });
    expect(render('email', { subject: '{{x}}', content: '{{x}}' }, { x: 'a\r\nb' })).toEqual({
      title: 'a b',
      content: 'a\r\nb',
    });
    expect(undeclaredVariables(['{{a}} {{b}}', '{{ c }}'], { a: 1 })).toEqual(['b', 'c']);
  });
});

describe('message center', () => {
  let t: TestContext;
  let admin: Record<string, string>;
  let adminEn: Record<string, string>;
  let companyA: { companyId: string; userId: string; headers: Record<string, string> };
  let companyB: { companyId: string; userId: string; headers: Record<string, string> };
  let operator: Record<string, string>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-messages-'));

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
  const templates = async (headers: Record<string, string>, query = '') =>
    (
      await ok<{ records: Template[]; total: number }>(
        'GET',
        `${TEMPLATE}/list?pageSize=100${query}`,
        headers,
      )
    ).records;
  const history = async (headers: Record<string, string>, query = '') =>
    (await ok<{ records: Message[] }>('GET', `${MESSAGE}/list?pageSize=100${query}`, headers))
      .records;

  beforeAll(async () => {
    t = await createTestApp({ env: { DATA_DIR: dataDir } });
    admin = authHeaders(await t.login('admin', ADMIN_PASSWORD));
    adminEn = { ...admin, ...EN };
    const a = await createCompanyAdmin(t, {
      code: 'MSGA',
      username: 'msga',
      password: 'Msga-Pass-1',
      perms: PERMS,
    });
    companyA = { ...a, headers: authHeaders(await t.login('msga', 'Msga-Pass-1')) };
    const b = await createCompanyAdmin(t, {
      code: 'MSGB',
      username: 'msgb',
      password: 'Msgb-Pass-1',
      perms: PERMS,
    });
    companyB = { ...b, headers: authHeaders(await t.login('msgb', 'Msgb-Pass-1')) };
    await t.createUser({ username: 'msgop', password: 'Msgop-Pass-1' });
    operator = authHeaders(await t.login('msgop', 'Msgop-Pass-1'));
  });
  afterAll(() => t.close());

  it('ships the platform templates, which companies inherit and may override for themselves', async () => {
    const platform = await templates(admin);
    expect(platform.map((p) => `${p.code}/${p.channel}`)).toEqual(
      expect.arrayContaining([
        'verify_code_sms/sms',
        'verify_code_email/email',
        'device_offline/system',
        'device_unstable/system',
        'campaign_finished/system',
        'campaign_failed/system',
        'fleet_report/system',
      ]),
    );
    expect(platform.every((p) => p.builtIn && !p.inherited)).toBe(true);

    const inherited = await templates(companyA.headers, '&code=device_offline');
    expect(inherited).toHaveLength(1);
    expect(inherited[0]).toMatchObject({ inherited: true, builtIn: true });
    const platformId = inherited[0]!.id;
    // Readable, but not theirs to change: another company's row answers like a missing one.
    await ok('GET', `${TEMPLATE}/queryById?id=${platformId}`, companyA.headers);
    const edit = await call('PUT', `${TEMPLATE}/edit`, companyA.headers, {
      id: platformId,
      code: 'device_offline',
      name: 'x',
      channel: 'system',
      subject: 's',
      subjectEn: 's',
      content: 'c',
      contentEn: 'c',
    });
    expect(edit.statusCode).toBe(404);
    expect(
      (await call('DELETE', `${TEMPLATE}/delete?id=${platformId}`, companyA.headers)).statusCode,
    ).toBe(404);

    const override = await ok<Template>('POST', `${TEMPLATE}/add`, companyA.headers, {
      code: 'device_offline',
      name: 'Offline (A)',
      channel: 'system',
      subject: 'A: {{count}} 台离线',
      subjectEn: 'A: {{count}} offline',
      content: '设备：{{devices}}',
      contentEn: 'Devices: {{devices}}',
      testData: { count: 1, devices: 'R40' },
    });
    const now = await templates(companyA.headers, '&code=device_offline');
    expect(now.map((p) => [p.id, p.inherited])).toEqual([[override.id, false]]);
    // Company B still inherits the platform's, and cannot see A's.
    expect((await templates(companyB.headers, '&code=device_offline'))[0]?.id).toBe(platformId);
    expect(
      (await call('GET', `${TEMPLATE}/queryById?id=${override.id}`, companyB.headers)).statusCode,
    ).toBe(404);

    // Sending uses A's text for A's users, the platform's for B's, each with the bell's link.
    await t.app.messages.sendTemplate({
      companyId: companyA.companyId,
      templateCode: 'device_offline',
      receivers: { userIds: [companyA.userId, companyB.userId] },
      vars: { count: 2, devices: '<R40-1>', seconds: 60 },
      link: { openPage: '/device/list' },
    });
    await t.app.messages.sendTemplate({
      companyId: companyB.companyId,
      templateCode: 'device_offline',
      receivers: { userIds: [companyB.userId] },
      vars: { count: 1, devices: 'R40-2', seconds: 60 },
    });
    const bell = async (headers: Record<string, string>) =>
      (
        await ok<{ sysMsgList: { titile: string; msgContent: string; openPage: string | null }[] }>(
          'GET',
          '/api/sys/annountCement/listByUser',
          headers,
        )
      ).sysMsgList;
    // B's user is not a member of A: only A's admin got A's message.
    expect(await bell(companyA.headers)).toEqual([
      expect.objectContaining({
        titile: 'A: 2 台离线',
        msgContent: '<p>设备：&lt;R40-1&gt;</p>',
        openPage: '/device/list',
      }),
    ]);
    expect((await bell({ ...companyA.headers, ...EN }))[0]?.titile).toBe('A: 2 offline');
    expect((await bell(companyB.headers)).map((m) => m.titile)).toEqual(['1 台设备离线']);
    const sentA = await history(companyA.headers);
    expect(sentA).toEqual([
      expect.objectContaining({
        channel: 'system',
        receiver: 'msga',
        status: 'sent',
        attempts: 1,
        templateCode: 'device_offline',
      }),
    ]);

    // Disabling the override stops the channel for A.
    await ok('PUT', `${TEMPLATE}/edit`, companyA.headers, {
      id: override.id,
      code: 'device_offline',
      name: 'Offline (A)',
      channel: 'system',
      subject: 'A',
      subjectEn: 'A',
      content: 'c',
      contentEn: 'c',
      enabled: false,
    });
    await t.app.messages.sendTemplate({
      companyId: companyA.companyId,
      templateCode: 'device_offline',
      receivers: { userIds: [companyA.userId] },
      vars: { count: 1 },
    });
    expect(await history(companyA.headers)).toHaveLength(1);
    await ok('DELETE', `${TEMPLATE}/delete?id=${override.id}`, companyA.headers);
    expect((await templates(companyA.headers, '&code=device_offline'))[0]?.inherited).toBe(true);
  });

  it('refuses templates with undeclared variables, missing subjects, bad codes and duplicates', async () => {
    const base = {
      code: 'door_open',
      name: 'Door',
      channel: 'email',
      subject: 'Door {{door}}',
      subjectEn: 'Door {{door}}',
      content: '{{door}} opened at {{time}}',
      contentEn: '{{door}} opened at {{ time }}',
      testData: { door: 'D1' },
    };
    const undeclared = await call('POST', `${TEMPLATE}/add`, { ...companyA.headers, ...EN }, base);
    expect(undeclared.statusCode).toBe(400);
    expect(fieldText(undeclared.json())).toBe(
      'testData: the template uses variables without test data: time',
    );
    const noSubject = await call(
      'POST',
      `${TEMPLATE}/add`,
      { ...companyA.headers, ...EN },
      {
        ...base,
        subjectEn: '',
        testData: { door: 'D1', time: '10:00' },
      },
    );
    expect(fieldText(noSubject.json())).toMatch(
      /^subject: email and system messages need a subject/,
    );
    const badCode = await call(
      'POST',
      `${TEMPLATE}/add`,
      { ...companyA.headers, ...EN },
      { ...base, code: 'Door-1' },
    );
    expect(badCode.statusCode).toBe(400);
    expect(badCode.json().errors[0].field).toBe('code');

    const good = { ...base, testData: { door: 'D1', time: '10:00' } };
    const added = await ok<Template>('POST', `${TEMPLATE}/add`, companyA.headers, good);
    const twice = await call('POST', `${TEMPLATE}/add`, { ...companyA.headers, ...EN }, good);
    expect(twice.statusCode).toBe(409);
    expect(fieldText(twice.json())).toBe(
      'code: a template with this code already exists for this channel',
    );
    // Same code for another channel, or in another company, is fine.
    await ok('POST', `${TEMPLATE}/add`, companyA.headers, {
      ...good,
      channel: 'sms',
      subject: '',
      subjectEn: '',
    });
    await ok('POST', `${TEMPLATE}/add`, companyB.headers, good);

    const preview = await ok<{ subject: string; contentEn: string; missing: string[] }>(
      'POST',
      `${TEMPLATE}/preview`,
      companyA.headers,
      {
        channel: 'system',
        subject: base.subject,
        subjectEn: base.subjectEn,
        content: base.content,
        contentEn: base.contentEn,
        testData: base.testData,
      },
    );
    expect(preview).toMatchObject({
      subject: 'Door D1',
      contentEn: '<p>D1 opened at {{ time }}</p>',
      missing: ['time'],
    });

    // The platform's own templates stay: no deleting, no new code or channel.
    const sms = (await templates(admin, '&code=verify_code_sms'))[0]!;
    const builtIn = await call('DELETE', `${TEMPLATE}/delete?id=${sms.id}`, adminEn);
    expect(builtIn.statusCode).toBe(409);
    expect(builtIn.json().message).toMatch(/cannot be deleted/);
    expect(
      (await call('DELETE', `${TEMPLATE}/delete?id=${added.id}`, companyB.headers)).statusCode,
    ).toBe(404);
  });

  it('sends tests and platform messages by email and SMS to the outbox, and keeps the history', async () => {
    const email = (await templates(admin, '&code=verify_code_email'))[0]!;
    const noReceiver = await call('POST', `${TEMPLATE}/sendTest`, adminEn, { id: email.id });
    expect(fieldText(noReceiver.json())).toBe('userId: choose a user or enter an address');
    const noEmail = await call('POST', `${TEMPLATE}/sendTest`, adminEn, {
      id: email.id,
      userId: companyA.userId,
    });
    // Not a member of the platform company: no such user for its administrator.
    expect(fieldText(noEmail.json())).toBe('userId: no such user');
    const bad = await call('POST', `${TEMPLATE}/sendTest`, adminEn, {
      id: email.id,
      address: 'nobody',
    });
    expect(fieldText(bad.json())).toBe('address: not a valid email address');

    const sent = await ok<{ ids: string[] }>('POST', `${TEMPLATE}/sendTest`, admin, {
      id: email.id,
      address: 'tester@example.com',
      lang: 'en-US',
    });
    expect(sent.ids).toHaveLength(1);
    await t.app.messages.close();
    const row = await ok<Message>('GET', `${MESSAGE}/queryById?id=${sent.ids[0]}`, admin);
    expect(row).toMatchObject({
      channel: 'email',
      receiver: 'tester@example.com',
      title: 'Your BLRMS verification code',
      status: 'sent',
      content: expect.stringContaining('123456'),
    });
    expect(outboxFor(dataDir, 'tester@example.com')).toEqual([
      expect.objectContaining({ channel: 'mail', subject: 'Your BLRMS verification code' }),
    ]);
    expect(await history(admin, '&channel=email&status=sent&receiver=tester')).toHaveLength(1);
    expect(await history(admin, '&channel=sms')).toEqual([]);
    // Another company's message answers like a missing one.
    expect(
      (await call('GET', `${MESSAGE}/queryById?id=${row.id}`, companyA.headers)).statusCode,
    ).toBe(404);
    expect(
      (await call('POST', `${MESSAGE}/resend`, companyA.headers, { id: row.id })).statusCode,
    ).toBe(404);
    const notFailed = await call('POST', `${MESSAGE}/resend`, adminEn, { id: row.id });
    expect(notFailed.statusCode).toBe(409);
    expect(notFailed.json().message).toBe('Only failed messages can be sent again');
  });

  it('delivers verification codes through the center, to the outbox, in the language asked', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sys/user/registerEmailCode',
      headers: EN,
      payload: { email: 'center@example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    // Sent before the request was answered: the code is in the outbox already.
    expect(outboxFor(dataDir, 'center@example.com')).toEqual([
      expect.objectContaining({
        subject: 'Your BLRMS verification code',
        text: expect.stringMatching(/^\[BLRMS\] Your verification code is \d{6}\./),
      }),
    ]);
    const [row] = await history(admin, '&receiver=center%40example.com');
    expect(row).toMatchObject({ templateCode: 'verify_code_email', status: 'sent', attempts: 1 });
    expect(row?.content).not.toContain('{{');
  });

  it('is closed to users without the permissions', async () => {
    for (const [method, url] of [
      ['GET', `${TEMPLATE}/list`],
      ['POST', `${TEMPLATE}/add`],
      ['GET', `${MESSAGE}/list`],
      ['POST', `${MESSAGE}/resend`],
      ['GET', '/api/sys/message/webhook/list'],
    ] as const) {
      expect(
        (await call(method, url, operator, method === 'GET' ? undefined : {})).statusCode,
        url,
      ).toBe(403);
    }
  });
});
