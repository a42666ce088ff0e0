import type { TDeviceLog, TQuartzJob, TQuartzJobRun } from '@blrms/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { permissionId } from '../../db/seed/seed.js';
import {
  ADMIN_PASSWORD,
  PLATFORM_ID,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';
import {
  DEVICE_BUTTONS,
  DEVICE_PAGES,
  client,
  createRole,
  type Client,
} from '../../test/devices.js';
import {
  credentialOf,
  expectDevice,
  uniqueSn,
  type TokenCredential,
} from '../../test/mqtt-devices.js';
import { RemoteDevice } from '../../test/remote-device.js';
import type { MessageCenter } from './scheduled-job.module.js';

/*
 * Scheduled jobs against the real app (SQLite; PostgreSQL too with DATABASE_URL) and real MQTT:
 * simulated devices connect to the embedded broker and receive what a job sends them. Time is the
 * test clock; the due sweep is run with `scheduler.runNow('scheduled-job.due')`.
 */

const QUARTZ_KEYS = [
  'system',
  'system-quartz-job',
  'system-quartz-job-add',
  'system-quartz-job-edit',
  'system-quartz-job-delete',
  'system-quartz-job-pause',
  'system-quartz-job-resume',
  'system-quartz-job-execute',
];
const SHANGHAI = 'Asia/Shanghai';
/** 2026-12-01 02:59:00 in Shanghai. */
const BEFORE_THREE = Date.parse('2026-11-30T18:59:00Z');

describe('scheduled jobs', () => {
  let t: TestContext;
  let admin: Client;
  let operator: Client;
  let other: Client;
  let viewer: Client;
  let url: string;
  let key: TokenCredential;
  let tokenId: string;
  let groupId: string;
  const devices: RemoteDevice[] = [];
  const sent: Parameters<MessageCenter['sendTemplate']>[0][] = [];

  const runDue = () => t.app.scheduler.runNow('scheduled-job.due');

  /** A group of its own, so that a test's counts do not include devices of earlier tests. */
  const newGroup = async () =>
    (await admin.ok('POST', '/device/group/add', { name: `G ${uniqueSn('G')}` })).id as string;

  async function register(group: string | null, connect = true) {
    const sn = uniqueSn('QJ');
    const added = await admin.ok('POST', '/device/device/add', {
      tokenId,
      sn,
      name: sn,
      series: 'R40',
      ...(group ? { groupId: group } : {}),
    });
    const device = new RemoteDevice(url, sn, key);
    devices.push(device);
    if (connect) {
      await device.connect();
      await expectDevice(admin, sn, { status: 'online' });
    }
    return { id: added.id as string, sn, device };
  }

  const reboot = (extra: object = {}) => ({
    name: 'Night reboot',
    jobType: 'device.reboot',
    cron: '0 3 * * *',
    timeZone: SHANGHAI,
    params: { groupId },
    ...extra,
  });

  beforeAll(async () => {
    t = await createTestApp({
      app: {
        mqtt: { port: 0 },
        messageCenter: {
          sendTemplate: async (input) => {
            sent.push(input);
          },
        },
      },
    });
    t.clock.now = BEFORE_THREE;
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    url = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
    const token = await admin.ok('POST', '/device/token/add', { name: 'Jobs' });
    key = credentialOf(token);
    tokenId = token.id;
    groupId = (await admin.ok('POST', '/device/group/add', { name: 'Night shift' })).id;

    const role = await createRole(t, PLATFORM_ID, [
      ...QUARTZ_KEYS,
      ...DEVICE_PAGES,
      ...DEVICE_BUTTONS,
    ]);
    await t.createUser({ username: 'jobop', password: 'Job-Operator-Pass-1', roleIds: [role] });
    operator = client(t, await t.login('jobop', 'Job-Operator-Pass-1'));
    // May see the jobs, but not send commands, nor change jobs.
    const readOnly = await createRole(t, PLATFORM_ID, [
      'system',
      'system-quartz-job',
      ...DEVICE_PAGES,
    ]);
    await t.createUser({ username: 'jobview', password: 'Job-Viewer-Pass-1', roleIds: [readOnly] });
    viewer = client(t, await t.login('jobview', 'Job-Viewer-Pass-1'));

    const company = await t.createCompany('qjb');
    const otherRole = await createRole(t, company, [
      ...QUARTZ_KEYS,
      ...DEVICE_PAGES,
      ...DEVICE_BUTTONS,
    ]);
    await t.createUser({
      username: 'jobother',
      password: 'Job-Other-Pass-1',
      companyId: company,
      roleIds: [otherRole],
    });
    other = client(t, await t.login('jobother', 'Job-Other-Pass-1'));
  });
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.disconnect()));
  });
  afterAll(() => t.close());

  it('previews the next five runs of a schedule in the job’s time zone, and refuses bad ones', async () => {
    const preview = await operator.ok(
      'GET',
      `/sys/quartzJob/cronPreview?cron=${encodeURIComponent('0 3 * * *')}&timeZone=${SHANGHAI}`,
    );
    expect(preview.local).toEqual([
      '2026-12-01 03:00',
      '2026-12-02 03:00',
      '2026-12-03 03:00',
      '2026-12-04 03:00',
      '2026-12-05 03:00',
    ]);
    expect(preview.runs[0]).toBe('2026-11-30T19:00:00.000Z');
    // Quartz style, with seconds and `?`.
    const quartz = await operator.ok(
      'GET',
      `/sys/quartzJob/cronPreview?cron=${encodeURIComponent('0 30 2 ? * MON')}&timeZone=Europe/Berlin`,
    );
    expect(quartz.local[0]).toBe('2026-12-07 02:30');

    const bad = async (cron: string, tz = SHANGHAI) =>
      operator.get(`/sys/quartzJob/cronPreview?cron=${encodeURIComponent(cron)}&timeZone=${tz}`);
    expect(fieldText((await bad('61 3 * * *')).json())).toMatch(/^cron: not a cron expression/);
    expect(fieldText((await bad('* * * * * *')).json())).toMatch(
      /seconds field must be one number/,
    );
    expect(fieldText((await bad('0 3 * *')).json())).toMatch(/5 or 6 fields/);
    expect(fieldText((await bad('0 3 30 2 *')).json())).toBe(
      'cron: this schedule never fires again',
    );
    expect((await bad('0 3 * * *', 'Mars/Olympus')).statusCode).toBe(400);
  });

  it('adds, lists, edits, pauses, resumes and deletes a job; parameters are checked per type', async () => {
    const added = await operator.post('/sys/quartzJob/add', reboot());
    expect(added.statusCode).toBe(200);
    const job: TQuartzJob = added.json().result;
    expect(job).toMatchObject({
      name: 'Night reboot',
      jobType: 'device.reboot',
      status: 'normal',
      nextRunTime: '2026-11-30T19:00:00.000Z',
      params: { groupId, timeoutSec: 60 },
      createBy: 'jobop',
      lastRun: null,
      running: false,
    });

    const page = await operator.ok('GET', '/sys/quartzJob/list?jobType=device.reboot');
    expect(page.records.map((j: TQuartzJob) => j.id)).toContain(job.id);

    const edited = await operator.ok('PUT', '/sys/quartzJob/edit', {
      ...reboot({ cron: '30 4 * * *', name: 'Later reboot' }),
      id: job.id,
    });
    expect(edited).toMatchObject({ name: 'Later reboot', nextRunTime: '2026-11-30T20:30:00.000Z' });
    const typeChange = await operator.put('/sys/quartzJob/edit', {
      id: job.id,
      name: 'x',
      jobType: 'fleet.report',
      cron: '0 8 * * *',
      timeZone: SHANGHAI,
      params: { userIds: [job.id] },
    });
    expect(fieldText(typeChange.json())).toBe('jobType: cannot change once the job is created');

    const paused = await operator.ok('POST', '/sys/quartzJob/pause', { id: job.id });
    expect(paused).toMatchObject({ status: 'paused', nextRunTime: null });
    const resumed = await operator.ok('POST', '/sys/quartzJob/resume', { id: job.id });
    expect(resumed).toMatchObject({ status: 'normal', nextRunTime: '2026-11-30T20:30:00.000Z' });

    // Parameters: the type's own schema, and rows of the caller's company only.
    const noTarget = await operator.post('/sys/quartzJob/add', reboot({ params: {} }));
    expect(fieldText(noTarget.json())).toMatch(/^params\.groupId: choose a group or a series/);
    const className = await operator.post('/sys/quartzJob/add', {
      ...reboot(),
      jobType: 'org.jeecg.modules.quartz.job.SampleJob',
    });
    expect(className.statusCode).toBe(400);
    const code = await operator.post(
      '/sys/quartzJob/add',
      reboot({ params: { groupId, script: 'rm -rf /' } }),
    );
    expect(fieldText(code.json())).toMatch(/script/);
    const badPatch = await operator.post('/sys/quartzJob/add', {
      ...reboot(),
      jobType: 'device.config',
      params: { groupId, series: 'R40', configPatch: { wifi: { channel: 'loud' } } },
    });
    expect(fieldText(badPatch.json())).toMatch(/^params\.configPatch\.wifi\.channel: /);
    const unknownUser = await operator.post('/sys/quartzJob/add', {
      ...reboot(),
      jobType: 'fleet.report',
      params: { userIds: ['f'.repeat(32)] },
    });
    expect(fieldText(unknownUser.json())).toBe('params.userIds: not a user of this company');
    const tz = await operator.post('/sys/quartzJob/add', reboot({ timeZone: 'UTC+8' }));
    expect(fieldText(tz.json())).toMatch(/^timeZone: must be an IANA time zone/);

    expect((await operator.del(`/sys/quartzJob/delete?id=${job.id}`)).statusCode).toBe(200);
    expect((await operator.get(`/sys/quartzJob/queryById?id=${job.id}`)).statusCode).toBe(404);
  });

  it('refuses what the user may not do: buttons, the type’s permission, another company’s jobs', async () => {
    const job: TQuartzJob = await operator.ok('POST', '/sys/quartzJob/add', reboot());
    expect((await viewer.get(`/sys/quartzJob/queryById?id=${job.id}`)).statusCode).toBe(200);
    const denied = [
      await viewer.post('/sys/quartzJob/add', reboot()),
      await viewer.put('/sys/quartzJob/edit', { ...reboot(), id: job.id }),
      await viewer.del(`/sys/quartzJob/delete?id=${job.id}`),
      await viewer.post('/sys/quartzJob/pause', { id: job.id }),
      await viewer.post('/sys/quartzJob/resume', { id: job.id }),
      await viewer.post('/sys/quartzJob/execute', { id: job.id }),
    ];
    expect(denied.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403, 403]);

    // Another company: its list is its own, and this company's job is not found, whatever the verb.
    expect((await other.ok('GET', '/sys/quartzJob/list')).total).toBe(0);
    const hidden = [
      await other.get(`/sys/quartzJob/queryById?id=${job.id}`),
      await other.get(`/sys/quartzJob/logs?id=${job.id}`),
      await other.put('/sys/quartzJob/edit', { ...reboot(), id: job.id }),
      await other.del(`/sys/quartzJob/delete?id=${job.id}`),
      await other.del(`/sys/quartzJob/deleteBatch?ids=${job.id}`),
      await other.post('/sys/quartzJob/pause', { id: job.id }),
      await other.post('/sys/quartzJob/resume', { id: job.id }),
      await other.post('/sys/quartzJob/execute', { id: job.id }),
    ];
    expect(hidden.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404, 404, 404, 404]);
    expect(hidden[0]!.json().message).toBe('Scheduled job not found');
    // Nor may it name this company's group.
    const foreignGroup = await other.post('/sys/quartzJob/add', reboot());
    expect(fieldText(foreignGroup.json())).toBe('params.groupId: no such device group');
    expect((await operator.ok('GET', `/sys/quartzJob/queryById?id=${job.id}`)).status).toBe(
      'normal',
    );
    await operator.ok('DELETE', `/sys/quartzJob/deleteBatch?ids=${job.id}`);
  });

  it('reboots a group’s online devices over MQTT at 03:00 Shanghai time, logging each under the job', async () => {
    const online = await register(groupId);
    const second = await register(groupId);
    const offline = await register(groupId, false);
    const outside = await register(null);
    const job: TQuartzJob = await operator.ok('POST', '/sys/quartzJob/add', reboot());

    // 02:59: nothing is due.
    await runDue();
    expect(online.device.of('rpc')).toEqual([]);

    t.clock.now = Date.parse(job.nextRunTime!) + 2000;
    expect(await runDue()).toBe('ok');
    for (const device of [online.device, second.device]) {
      await vi.waitFor(() =>
        expect(device.of('rpc').map((d) => d.payload)).toEqual([
          { method: 'reboot', timeoutSec: 60 },
        ]),
      );
    }
    expect(outside.device.of('rpc')).toEqual([]);

    const [run]: TQuartzJobRun[] = await operator.ok('GET', `/sys/quartzJob/logs?id=${job.id}`);
    expect(run).toMatchObject({
      trigger: 'schedule',
      scheduledTime: '2026-11-30T19:00:00.000Z',
      outcome: 'partial',
      counts: { targeted: 3, sent: 2, failed: 0, skipped: 1 },
      message: '3 devices targeted: 2 sent, 0 failed, 1 offline and skipped',
      runBy: null,
    });
    const after: TQuartzJob = await operator.ok('GET', `/sys/quartzJob/queryById?id=${job.id}`);
    expect(after).toMatchObject({
      nextRunTime: '2026-12-01T19:00:00.000Z',
      lastRun: { outcome: 'partial' },
      running: false,
    });
    // The same occurrence is not run twice.
    await runDue();
    expect(await operator.ok('GET', `/sys/quartzJob/logs?id=${job.id}`)).toHaveLength(1);

    // Each device's log: the job, its type and the user who scheduled it.
    const logs = (await admin.ok('GET', '/device/log/list?pageSize=100')).records as TDeviceLog[];
    const ofJob = logs.filter((l) => l.requestUrl === `/sys/quartzJob/${job.id}`);
    expect(ofJob.map((l) => [l.sn, l.state, l.sourceUser]).sort()).toEqual(
      [
        [online.sn, 'succeeded', 'jobop'],
        [second.sn, 'succeeded', 'jobop'],
        [offline.sn, 'failed', 'jobop'],
      ].sort(),
    );
    expect(JSON.parse(ofJob.find((l) => l.sn === offline.sn)!.content)).toMatchObject({
      job: 'Night reboot',
      jobType: 'device.reboot',
      result: 'offline',
    });
    await operator.ok('DELETE', `/sys/quartzJob/delete?id=${job.id}`);
  });

  it('skips an occurrence missed by more than five minutes (server down at 03:00) and records it', async () => {
    const { device } = await register(groupId);
    t.clock.now = BEFORE_THREE + 86_400_000 * 3;
    const job: TQuartzJob = await operator.ok('POST', '/sys/quartzJob/add', reboot());
    // The servers come back at 03:06.
    t.clock.now = Date.parse(job.nextRunTime!) + 6 * 60_000;
    await runDue();
    const [run]: TQuartzJobRun[] = await operator.ok('GET', `/sys/quartzJob/logs?id=${job.id}`);
    expect(run).toMatchObject({ outcome: 'skipped', counts: null });
    expect(run!.message).toMatch(
      /^Missed its time 2026-12-04 03:00 \(Asia\/Shanghai\) by more than 5 minutes/,
    );
    expect(device.of('rpc')).toEqual([]);
    expect((await operator.ok('GET', `/sys/quartzJob/queryById?id=${job.id}`)).nextRunTime).toBe(
      '2026-12-04T19:00:00.000Z',
    );
    await operator.ok('DELETE', `/sys/quartzJob/delete?id=${job.id}`);
  });

  it('runs now once at a time, and fails a run whose user lost the permission', async () => {
    const group = await newGroup();
    const { device } = await register(group);
    const job: TQuartzJob = await operator.ok(
      'POST',
      '/sys/quartzJob/add',
      reboot({ params: { groupId: group } }),
    );
    const [a, b] = await Promise.all([
      operator.post('/sys/quartzJob/execute', { id: job.id }),
      operator.post('/sys/quartzJob/execute', { id: job.id }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json().message).toBe('The job is running; try again when this run ends');
    const ran = (a.statusCode === 200 ? a : b).json().result as TQuartzJobRun;
    expect(ran).toMatchObject({ trigger: 'manual', outcome: 'ok', runBy: 'jobop' });
    await vi.waitFor(() => expect(device.of('rpc')).toHaveLength(1));

    // The job acts as jobop; once jobop may no longer send commands, its runs fail and say why.
    const role = await t.db
      .selectFrom('sys_user_role')
      .innerJoin('sys_user', 'sys_user.id', 'sys_user_role.user_id')
      .select('role_id')
      .where('sys_user.username', '=', 'jobop')
      .executeTakeFirstOrThrow();
    await t.db
      .deleteFrom('sys_role_permission')
      .where('role_id', '=', role.role_id)
      .where('permission_id', '=', permissionId('device:command'))
      .execute();
    t.clock.advance(60_000); // past the permission cache
    // Anyone may press "run now"; the run still acts as jobop.
    const lost = await admin.ok('POST', '/sys/quartzJob/execute', { id: job.id });
    expect(lost).toMatchObject({
      outcome: 'failed',
      message: 'jobop, whom the job acts as, no longer holds device:command',
    });
    expect(device.of('rpc')).toHaveLength(1);
    await t.db
      .insertInto('sys_role_permission')
      .values({
        role_id: role.role_id,
        permission_id: permissionId('device:command'),
        data_rule_ids: null,
      })
      .execute();
    t.clock.advance(60_000);
    await operator.ok('DELETE', `/sys/quartzJob/delete?id=${job.id}`);
  });

  it('applies a configuration change to a group as a configuration campaign', async () => {
    const group = await newGroup();
    const { device } = await register(group);
    const job: TQuartzJob = await operator.ok('POST', '/sys/quartzJob/add', {
      ...reboot({ name: 'Heartbeat 45' }),
      jobType: 'device.config',
      params: { groupId: group, series: 'R40', configPatch: { heartbeatSec: 45 } },
    });
    const run: TQuartzJobRun = await operator.ok('POST', '/sys/quartzJob/execute', { id: job.id });
    expect(run).toMatchObject({ outcome: 'ok', counts: { targeted: 1, sent: 1, skipped: 0 } });
    expect(run.message).toMatch(/^Configuration campaign “Heartbeat 45 .*” created for 1 devices/);
    await vi.waitFor(() =>
      expect(device.of('config').map((d) => (d.payload as { config: object }).config)).toEqual([
        expect.objectContaining({ heartbeatSec: 45 }),
      ]),
    );
    await operator.ok('DELETE', `/sys/quartzJob/delete?id=${job.id}`);
  });

  it('starts a paused campaign at its time, and says so when the campaign is not waiting', async () => {
    await register(groupId);
    const campaign = await operator.ok('POST', '/campaign/add', {
      name: 'Prepared',
      kind: 'config',
      series: 'R40',
      configPatch: { heartbeatSec: 50 },
      target: { groupId },
    });
    await operator.ok('POST', '/campaign/pause', { id: campaign.id });
    const job: TQuartzJob = await operator.ok('POST', '/sys/quartzJob/add', {
      ...reboot({ name: 'Start prepared' }),
      jobType: 'campaign.start',
      params: { campaignId: campaign.id },
    });
    const run: TQuartzJobRun = await operator.ok('POST', '/sys/quartzJob/execute', { id: job.id });
    expect(run).toMatchObject({ outcome: 'ok', message: 'Campaign “Prepared” started' });
    expect((await operator.ok('GET', `/campaign/detail?id=${campaign.id}`)).state).not.toBe(
      'paused',
    );
    const again: TQuartzJobRun = await operator.ok('POST', '/sys/quartzJob/execute', {
      id: job.id,
    });
    expect(again.outcome).toBe('failed');
    expect(again.message).toMatch(
      /^Campaign “Prepared” is .*: neither paused nor waiting for approval/,
    );
    await operator.ok('DELETE', `/sys/quartzJob/delete?id=${job.id}`);
  });

  it('mails the fleet report through the message center to the chosen users', async () => {
    await register(groupId);
    const me = await t.db
      .selectFrom('sys_user')
      .select('id')
      .where('username', '=', 'jobview')
      .executeTakeFirstOrThrow();
    const job: TQuartzJob = await operator.ok('POST', '/sys/quartzJob/add', {
      ...reboot({ name: 'Morning report', cron: '0 8 * * 1-5' }),
      jobType: 'fleet.report',
      params: { userIds: [me.id] },
    });
    sent.length = 0;
    const run: TQuartzJobRun = await operator.ok('POST', '/sys/quartzJob/execute', { id: job.id });
    expect(run).toMatchObject({ outcome: 'ok', message: 'Fleet report sent to 1 users' });
    expect(sent).toEqual([
      {
        companyId: PLATFORM_ID,
        templateCode: 'fleet_report',
        receivers: { userIds: [me.id] },
        createBy: 'jobop',
        vars: expect.objectContaining({
          online: expect.any(Number),
          offline: expect.any(Number),
          total: expect.any(Number),
          offlineLongest: expect.any(String),
          failedUpgrades: 0,
        }),
      },
    ]);
    expect(sent[0]!.vars.online).toBeGreaterThanOrEqual(1);
    await operator.ok('DELETE', `/sys/quartzJob/delete?id=${job.id}`);
  });

  it('keeps at most 100 jobs per company', async () => {
    const now = t.clock.now;
    await t.db
      .insertInto('sys_quartz_job')
      .values(
        Array.from({ length: 100 }, (_, i) => ({
          id: `${'c'.repeat(29)}${String(i).padStart(3, '0')}`,
          company_id: PLATFORM_ID,
          name: `bulk ${i}`,
          job_type: 'fleet.report',
          cron: '0 8 * * *',
          time_zone: SHANGHAI,
          params_json: '{"userIds":[]}',
          description: null,
          status: 'paused',
          next_run_time: null,
          run_until: 0,
          last_start: null,
          last_end: null,
          last_outcome: null,
          last_message: null,
          create_by: 'jobop',
          run_as_id: 'x',
          run_as: 'jobop',
          create_time: now,
          update_by: null,
          update_time: null,
        })),
      )
      .execute();
    const refused = await operator.post('/sys/quartzJob/add', reboot());
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('A company may keep at most 100 scheduled jobs');
    await t.db.deleteFrom('sys_quartz_job').where('name', 'like', 'bulk %').execute();
  });

  it('shows platform jobs to platform administrators only; pause holds until resumed', async () => {
    const jobs = await admin.ok('GET', '/sys/quartzJob/platform/list');
    const due = jobs.find((j: { name: string }) => j.name === 'scheduled-job.due');
    expect(due).toMatchObject({ scope: 'cluster', everyMs: 5000, pausable: true, paused: false });
    expect(jobs.find((j: { name: string }) => j.name === 'console-socket.ping')).toMatchObject({
      scope: 'node',
      pausable: false,
    });
    expect((await operator.get('/sys/quartzJob/platform/list')).statusCode).toBe(403);
    expect(
      (await operator.post('/sys/quartzJob/platform/pause', { name: 'scheduled-job.due' }))
        .statusCode,
    ).toBe(403);

    await admin.ok('POST', '/sys/quartzJob/platform/pause', {
      name: 'device-command.timeout-sweep',
    });
    const listed = await admin.ok('GET', '/sys/quartzJob/platform/list');
    expect(
      listed.find((j: { name: string }) => j.name === 'device-command.timeout-sweep').paused,
    ).toBe(true);
    const node = await admin.post('/sys/quartzJob/platform/pause', { name: 'console-socket.ping' });
    expect(node.statusCode).toBe(409);
    const unknown = await admin.post('/sys/quartzJob/platform/pause', { name: 'no.such-job' });
    expect(unknown.statusCode).toBe(404);
    // Run now still runs a paused job, and its history shows the run.
    expect(
      await admin.ok('POST', '/sys/quartzJob/platform/execute', {
        name: 'device-command.timeout-sweep',
      }),
    ).toEqual({ outcome: 'ok' });
    await admin.ok('POST', '/sys/quartzJob/platform/resume', {
      name: 'device-command.timeout-sweep',
    });
    expect(
      (await admin.ok('GET', '/sys/quartzJob/platform/list')).find(
        (j: { name: string }) => j.name === 'device-command.timeout-sweep',
      ).paused,
    ).toBe(false);
    expect(await admin.ok('GET', '/sys/quartzJob/platform/logs?name=scheduled-job.due')).toEqual(
      expect.any(Array),
    );
  });
});
