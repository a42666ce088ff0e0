import { randomBytes } from 'node:crypto';
import {
  CAMPAIGN_ACTIVE_STATES,
  SECRET_MASK,
  type TCampaign,
  type TCampaignCreateInput,
  type TCampaignDeviceState,
  type TCampaignProgress,
  type TDeviceConfigState,
  type TDeviceLog,
  type TFirmware,
} from '@blrms/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import {
  OtaDevice,
  campaignDevices,
  createCampaign,
  expectCampaign,
  uploadFirmware,
} from '../../test/campaign.js';
import { client, type Client } from '../../test/devices.js';
import {
  expectDevice,
  uniqueSn,
  credentialOf,
  type TokenCredential,
} from '../../test/mqtt-devices.js';
import { RemoteDevice } from '../../test/remote-device.js';
import { DeviceLogRepository } from '../device/device-log.repository.js';
import { DeviceLogService } from '../device/device-log.service.js';
import { CampaignEngine } from './campaign-engine.service.js';
import { CampaignRepository } from './campaign.repository.js';

/*
 * The rollout over real MQTT connections: devices whose reports the test sends step by step, and
 * the engine's tick run by the test (its timer is set far off) after moving the test clock.
 */

const MINUTE = 60_000;
const ACTIVE = new Set<string>(CAMPAIGN_ACTIVE_STATES);

describe('campaign engine', () => {
  let t: TestContext;
  let admin: Client;
  let url: string;
  let key: TokenCredential;
  let tokenId: string;
  let firmware: TFirmware;
  const connected: { disconnect(): Promise<void> }[] = [];
  const progress: TCampaignProgress[] = [];

  const tick = () => t.app.campaignEngine.tick();

  /** Another node's engine over the same database, bus and gateway. */
  const secondNode = () =>
    new CampaignEngine({
      repository: new CampaignRepository(t.db, t.dialect),
      firmware: t.app.firmware,
      configs: t.app.deviceConfigs,
      downlinks: t.app.deviceGateway,
      deviceLogs: new DeviceLogService(new DeviceLogRepository(t.db), t.clock.read),
      // The end of a campaign is told by whichever node ends it; this one's messages go nowhere.
      messages: { sendTemplate: () => Promise.resolve() },
      bus: t.bus,
      clock: t.clock.read,
      log: t.app.log,
    });

  /**
   * Devices registered at 1.0.0 and connected, but for all (`offline: true`) or those at the
   * indexes given; in SN order.
   */
  async function fleet(
    count: number,
    options: { offline?: boolean | number[]; groupId?: string } = {},
  ) {
    const prefix = uniqueSn('OTA');
    const devices: (OtaDevice & { id: string })[] = [];
    for (let i = 0; i < count; i += 1) {
      const sn = `${prefix}-${String(i).padStart(2, '0')}`;
      const added = await admin.ok('POST', '/device/device/add', {
        tokenId,
        sn,
        name: sn,
        series: 'R40',
        version: '1.0.0',
        ...(options.groupId ? { groupId: options.groupId } : {}),
      });
      const device = Object.assign(new OtaDevice(url, sn, key), { id: added.id as string });
      connected.push(device);
      const offline = Array.isArray(options.offline)
        ? options.offline.includes(i)
        : options.offline === true;
      if (!offline) {
        await device.connect('1.0.0');
        await expectDevice(admin, sn, { status: 'online' });
      }
      devices.push(device);
    }
    return devices;
  }

  const upgrade = (devices: OtaDevice[], overrides: Partial<TCampaignCreateInput> = {}) =>
    createCampaign(admin, {
      name: 'Upgrade',
      kind: 'ota',
      firmwareId: firmware.id,
      target: { deviceIds: devices.map((d) => (d as OtaDevice & { id: string }).id) },
      ...overrides,
    });

  async function states(id: string): Promise<Record<string, TCampaignDeviceState>> {
    const devices = await campaignDevices(admin, id);
    return Object.fromEntries([...devices].map(([sn, d]) => [sn, d.state]));
  }

  async function expectStates(id: string, expected: Record<string, TCampaignDeviceState>) {
    await vi.waitFor(async () => expect(await states(id)).toMatchObject(expected), {
      timeout: 5000,
      interval: 25,
    });
  }

  const byState = (devices: { sn: string }[], state: TCampaignDeviceState) =>
    Object.fromEntries(devices.map((d) => [d.sn, state]));

  async function jobArrives(device: OtaDevice, count = 1) {
    await vi.waitFor(() => expect(device.jobs).toHaveLength(count), {
      timeout: 5000,
      interval: 20,
    });
    return device.jobs[count - 1]!;
  }

  async function otaLogs(deviceId: string): Promise<TDeviceLog[]> {
    const page = await admin.ok(
      'GET',
      `/device/log/list?deviceId=${deviceId}&subject=Upgrade&order=asc&pageSize=100`,
    );
    return page.records;
  }

  beforeAll(async () => {
    t = await createTestApp({
      app: { mqtt: { port: 0 }, campaigns: { tickMs: 60 * MINUTE } },
    });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    url = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
    const token = await admin.ok('POST', '/device/token/add', { name: 'Campaigns' });
    key = credentialOf(token);
    tokenId = token.id;
    firmware = await uploadFirmware(t, admin, {
      series: 'R40',
      version: '2.0.0',
      content: randomBytes(4096),
    });
    t.bus.subscribe('campaign.progress', ({ campaign }) => progress.push(campaign));
  });
  afterEach(async () => {
    await Promise.all(connected.splice(0).map((d) => d.disconnect()));
  });
  afterAll(() => t.close());

  it('rolls out wave after wave, never more than maxConcurrent at once, and completes', async () => {
    const devices = await fleet(10);
    const campaign = await upgrade(devices, { waves: [20, 100], maxConcurrent: 3 });
    await tick();
    // The first wave is 20 % of 10: the first two by SN.
    await expectStates(campaign.id, {
      ...byState(devices, 'queued'),
      ...byState(devices.slice(0, 2), 'notified'),
    });
    const first = await jobArrives(devices[0]!);
    expect(first.payload).toEqual({
      version: '2.0.0',
      url: expect.stringMatching(
        new RegExp(`/api/firmware/download/${firmware.id}\\?exp=\\d+&sig=`),
      ),
      size: 4096,
      sha256: firmware.sha256,
    });
    const [log] = await otaLogs(devices[0]!.id);
    expect(log).toMatchObject({
      requestUrl: `blrms/v1/${devices[0]!.address}/down/ota/${first.jobId}`,
      sourceUser: 'admin',
      subject: 'Upgrade notified',
      state: 'sent',
    });
    expect(JSON.parse(log!.content)).toMatchObject({ campaignId: campaign.id, version: '2.0.0' });

    // One device of the wave done: the next wave waits for the other.
    await devices[0]!.upgrade(first.jobId, first.payload);
    await expectStates(campaign.id, { [devices[0]!.sn]: 'updated' });
    await tick();
    expect(await expectCampaign(admin, campaign.id, { currentWave: 0 })).toMatchObject({
      counts: { updated: 1, notified: 1, queued: 8 },
    });
    const second = await jobArrives(devices[1]!);
    await devices[1]!.upgrade(second.jobId, second.payload);
    await expectStates(campaign.id, { [devices[1]!.sn]: 'updated' });

    // The rest, three at a time.
    const done = new Set<OtaDevice>(devices.slice(0, 2));
    let most = 0;
    for (let round = 0; round < 10; round += 1) {
      await tick();
      const detail = (await admin.ok('GET', `/campaign/detail?id=${campaign.id}`)) as TCampaign;
      const active = Object.entries(detail.counts)
        .filter(([state]) => ACTIVE.has(state))
        .reduce((sum, [, n]) => sum + n, 0);
      most = Math.max(most, active);
      if (detail.state === 'completed') break;
      expect(detail.currentWave).toBe(1);
      const waiting = devices.filter((d) => d.jobs.length > 0 && !done.has(d));
      for (const d of waiting) done.add(d);
      await Promise.all(waiting.map((d) => d.upgrade(d.lastJob!.jobId, d.lastJob!.payload)));
      await expectStates(campaign.id, byState(waiting, 'updated'));
    }
    expect(most).toBe(3);
    const completed = await expectCampaign(admin, campaign.id, { state: 'completed' });
    expect(completed).toMatchObject({
      counts: { updated: 10, failed: 0, queued: 0 },
      endTime: expect.any(String),
    });
    expect(devices.map((d) => d.jobs.length)).toEqual(Array(10).fill(1));
    expect((await otaLogs(devices[0]!.id)).map((l) => l.state)).toEqual(['succeeded']);
    expect(progress.filter((p) => p.id === campaign.id).at(-1)).toMatchObject({
      state: 'completed',
      counts: { updated: 10 },
    });
  });

  it('judges the threshold per wave with devices in flight: a burst pauses before the next wave; resuming accepts it', async () => {
    const devices = await fleet(10);
    const campaign = await upgrade(devices, { waves: [50, 100], failureThresholdPercent: 40 });
    await tick();
    const wave0 = devices.slice(0, 5);
    const wave1 = devices.slice(5);
    await Promise.all(wave0.map((d) => jobArrives(d)));
    // Two of five failed while three are still on their way: 40 % of the wave, over at once.
    for (const d of wave0.slice(0, 2)) {
      await d.report(d.lastJob!.jobId, { state: 'failed', error: 'flash write error' });
    }
    const paused = await expectCampaign(admin, campaign.id, {
      state: 'paused',
      pausedReason: 'failure-threshold',
      thresholdWave: 0,
      counts: { failed: 2, notified: 3, queued: 5 },
    });
    expect(paused.currentWave).toBe(0);
    expect(progress.filter((p) => p.id === campaign.id).at(-1)).toMatchObject({
      state: 'paused',
      thresholdWave: 0,
    });
    expect((await otaLogs(wave0[0]!.id)).map((l) => l.state)).toEqual(['failed']);

    // The devices in flight finish; the next wave is not sent while paused.
    for (const d of wave0.slice(2)) await d.upgrade(d.lastJob!.jobId, d.lastJob!.payload);
    await expectStates(campaign.id, byState(wave0.slice(2), 'updated'));
    await tick();
    await tick();
    await expectCampaign(admin, campaign.id, { state: 'paused', currentWave: 0 });
    expect(await states(campaign.id)).toMatchObject(byState(wave1, 'queued'));

    // Resuming accepts wave 0's failures: the next wave starts, and is judged on its own.
    expect(await admin.ok('POST', '/campaign/resume', { id: campaign.id })).toMatchObject({
      state: 'running',
      pausedReason: null,
      thresholdWave: null,
    });
    await tick();
    await Promise.all(wave1.map((d) => jobArrives(d)));
    await wave1[0]!.report(wave1[0]!.lastJob!.jobId, { state: 'failed', error: 'low battery' });
    for (const d of wave1.slice(1)) await d.upgrade(d.lastJob!.jobId, d.lastJob!.payload);
    await expectStates(campaign.id, byState(wave1.slice(1), 'updated'));
    await tick();
    await expectCampaign(admin, campaign.id, {
      state: 'completed-with-failures',
      thresholdWave: null,
      counts: { updated: 7, failed: 3 },
      endTime: expect.any(String),
    });
  });

  it('starts a wave only when the one before is final and soaked', async () => {
    const devices = await fleet(4);
    // 25 % of 4: one device, then three.
    const campaign = await upgrade(devices, { waves: [25, 100], soakMinutes: 30 });
    await tick();
    const job = await jobArrives(devices[0]!);
    await devices[0]!.report(job.jobId, { state: 'downloading', progress: 40 });
    await tick();
    expect(await states(campaign.id)).toMatchObject(byState(devices.slice(1), 'queued'));

    await devices[0]!.upgrade(job.jobId, job.payload);
    await expectStates(campaign.id, { [devices[0]!.sn]: 'updated' });
    const soakEnds = new Date(t.clock.now + 30 * MINUTE).toISOString();
    await tick();
    await expectCampaign(admin, campaign.id, {
      state: 'running',
      currentWave: 0,
      gate: 'soak',
      gateUntil: soakEnds,
    });
    t.clock.advance(29 * MINUTE);
    await tick();
    expect(await states(campaign.id)).toMatchObject(byState(devices.slice(1), 'queued'));

    t.clock.advance(MINUTE);
    await tick();
    await expectCampaign(admin, campaign.id, { currentWave: 1, gate: null, gateUntil: null });
    const rest = await Promise.all(devices.slice(1).map((d) => jobArrives(d)));
    await Promise.all(devices.slice(1).map((d, i) => d.upgrade(rest[i]!.jobId, rest[i]!.payload)));
    await expectStates(campaign.id, byState(devices, 'updated'));
    await tick();
    // The last wave has no next one to soak for.
    await expectCampaign(admin, campaign.id, { state: 'completed', gate: null });
  });

  it('awaits an operator’s approval before each wave after the first', async () => {
    const devices = await fleet(3);
    // 10 % of 3: one device, then 50 %: one more, then the last.
    const campaign = await upgrade(devices, { waves: [10, 50, 100], approveEachWave: true });
    await tick();
    const first = await jobArrives(devices[0]!);
    const early = await admin.post('/campaign/approve', { id: campaign.id });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('The campaign is not awaiting approval of a wave');

    await devices[0]!.upgrade(first.jobId, first.payload);
    await expectStates(campaign.id, { [devices[0]!.sn]: 'updated' });
    await tick();
    await expectCampaign(admin, campaign.id, { currentWave: 0, gate: 'approval' });
    t.clock.advance(24 * 60 * MINUTE);
    await tick();
    expect(await states(campaign.id)).toMatchObject({ [devices[1]!.sn]: 'queued' });
    expect(progress.filter((p) => p.id === campaign.id).at(-1)).toMatchObject({ gate: 'approval' });

    const approved = await admin.post('/campaign/approve', { id: campaign.id });
    expect(approved.json()).toMatchObject({ message: 'Approved: the next wave starts' });
    expect((await admin.post('/campaign/approve', { id: campaign.id })).statusCode).toBe(409);
    // Two nodes take the approved wave at once: it starts once, its device gets one job.
    const otherNode = secondNode();
    await Promise.all([tick(), otherNode.tick(), tick(), otherNode.tick()]);
    await otherNode.close();
    const second = await jobArrives(devices[1]!);
    await expectCampaign(admin, campaign.id, { currentWave: 1, gate: null });
    await devices[1]!.upgrade(second.jobId, second.payload);
    await expectStates(campaign.id, { [devices[1]!.sn]: 'updated' });
    await tick();
    await expectCampaign(admin, campaign.id, { currentWave: 1, gate: 'approval' });
    expect(devices[1]!.jobs).toHaveLength(1);
    expect(await states(campaign.id)).toMatchObject({ [devices[2]!.sn]: 'queued' });
    await admin.ok('POST', '/campaign/approve', { id: campaign.id });
    await tick();
    const third = await jobArrives(devices[2]!);
    await devices[2]!.upgrade(third.jobId, third.payload);
    await expectStates(campaign.id, byState(devices, 'updated'));
    await tick();
    await expectCampaign(admin, campaign.id, { state: 'completed', counts: { updated: 3 } });
  });

  it('holds a wave for its offline device until the wave deadline, then moves on without it', async () => {
    const [present, away, later] = await fleet(3, { offline: [1] });
    // Waves by SN: the first two, then the last.
    const campaign = await upgrade([present!, away!, later!], {
      waves: [50, 100],
      waveDeadlineMinutes: 10,
      onWaveDeadline: 'continue',
    });
    await tick();
    const job = await jobArrives(present!);
    await present!.upgrade(job.jobId, job.payload);
    await expectStates(campaign.id, { [present!.sn]: 'updated' });
    await tick();
    // The offline device of the wave holds the next one back until the deadline.
    await expectCampaign(admin, campaign.id, {
      currentWave: 0,
      waitingOffline: 1,
      waveDeadline: new Date(t.clock.now + 10 * MINUTE).toISOString(),
    });
    expect(await states(campaign.id)).toMatchObject({ [later!.sn]: 'queued' });
    t.clock.advance(10 * MINUTE);
    // The pass that finds the deadline passed releases the wave and starts the next one.
    await tick();
    expect(await states(campaign.id)).toMatchObject({
      [away!.sn]: 'queued',
      [later!.sn]: 'notified',
    });
    const next = await jobArrives(later!);
    await expectCampaign(admin, campaign.id, {
      currentWave: 1,
      waveDeadline: expect.any(String),
      counts: { queued: 1, notified: 1 },
    });
    await later!.upgrade(next.jobId, next.payload);
    // The released device still upgrades when it returns.
    await away!.connect('1.0.0');
    const late = await jobArrives(away!);
    await away!.upgrade(late.jobId, late.payload);
    await expectStates(campaign.id, byState([present!, away!, later!], 'updated'));
    await tick();
    await expectCampaign(admin, campaign.id, { state: 'completed' });
  });

  it('fails the wave’s offline devices at its deadline when told to, against the threshold', async () => {
    const [present, away, later] = await fleet(3, { offline: [1] });
    const campaign = await upgrade([present!, away!, later!], {
      waves: [50, 100],
      waveDeadlineMinutes: 10,
      onWaveDeadline: 'fail',
      failureThresholdPercent: 60,
    });
    await tick();
    const job = await jobArrives(present!);
    await present!.upgrade(job.jobId, job.payload);
    await expectStates(campaign.id, { [present!.sn]: 'updated' });
    t.clock.advance(10 * MINUTE);
    await tick();
    const devices = await campaignDevices(admin, campaign.id);
    expect(devices.get(away!.sn)).toMatchObject({
      state: 'failed',
      error: 'offline at wave deadline',
    });
    expect(devices.get(later!.sn)?.state).toBe('notified');
    // One of the wave's two failed: 50 %, under the 60 % threshold, so the next wave starts.
    const next = await jobArrives(later!);
    await later!.upgrade(next.jobId, next.payload);
    await expectStates(campaign.id, { [later!.sn]: 'updated' });
    await tick();
    await expectCampaign(admin, campaign.id, {
      state: 'completed-with-failures',
      counts: { updated: 2, failed: 1 },
    });
  });

  it('starts a scheduled campaign at its time; a scheduled one can be canceled', async () => {
    const devices = await fleet(2);
    const startAt = new Date(t.clock.now + 60 * MINUTE).toISOString();
    const res = await admin.post('/campaign/add', {
      name: 'Tonight',
      kind: 'ota',
      firmwareId: firmware.id,
      target: { deviceIds: [(devices[0] as OtaDevice & { id: string }).id] },
      startAt,
    });
    expect(res.json()).toMatchObject({
      message: 'Campaign scheduled: it starts at the time set',
      result: { state: 'scheduled', startAt },
    });
    const campaign = res.json().result as TCampaign;
    const other = await upgrade(devices.slice(1), { startAt });
    await tick();
    expect(await states(campaign.id)).toEqual(byState(devices.slice(0, 1), 'queued'));
    expect((await admin.post('/campaign/pause', { id: campaign.id })).statusCode).toBe(409);
    expect(await admin.ok('POST', '/campaign/cancel', { id: other.id })).toMatchObject({
      state: 'canceled',
      counts: { canceled: 1 },
    });

    t.clock.advance(59 * MINUTE);
    await tick();
    await expectCampaign(admin, campaign.id, { state: 'scheduled', counts: { queued: 1 } });
    t.clock.advance(MINUTE);
    await tick();
    await expectCampaign(admin, campaign.id, { state: 'running', counts: { notified: 1 } });
    await jobArrives(devices[0]!);
    expect(await states(other.id)).toEqual(byState(devices.slice(1), 'canceled'));
  });

  it('starts a device that was offline when its turn came as soon as it comes back', async () => {
    const [present] = await fleet(1);
    const [away] = await fleet(1, { offline: true });
    const campaign = await upgrade([present!, away!]);
    await tick();
    await jobArrives(present!);
    await expectCampaign(admin, campaign.id, {
      counts: { notified: 1, queued: 1 },
      waitingOffline: 1,
    });
    await present!.upgrade(present!.lastJob!.jobId, present!.lastJob!.payload);

    // No tick: its online status starts it.
    await away!.connect('1.0.0');
    const job = await jobArrives(away!);
    await away!.upgrade(job.jobId, job.payload);
    await expectStates(campaign.id, byState([present!, away!], 'updated'));
    await tick();
    await expectCampaign(admin, campaign.id, { state: 'completed', waitingOffline: 0 });
  });

  it('fails stalls, a wrong sha256 and a wrong version; ignores backwards and stale reports; retries the failed', async () => {
    const [stalled, corrupt, wrongVersion, slow] = await fleet(4);
    const all = [stalled!, corrupt!, wrongVersion!, slow!];
    const campaign = await upgrade(all);
    await tick();
    await Promise.all(all.map((d) => jobArrives(d)));

    await corrupt!.report(corrupt!.lastJob!.jobId, { state: 'downloaded', sha256: 'f'.repeat(64) });
    await wrongVersion!.report(wrongVersion!.lastJob!.jobId, { state: 'updating' });
    await expectStates(campaign.id, { [wrongVersion!.sn]: 'updating' });
    // Installing restarts the device: the platform expects it back (no offline alert meanwhile).
    const restart = {
      kind: 'upgrade' as const,
      until: new Date(t.clock.now + 15 * MINUTE).toISOString(),
    };
    await expectDevice(admin, wrongVersion!.sn, { expectedRestart: restart });
    await wrongVersion!.disconnect();
    await wrongVersion!.connect('1.0.0');
    await expectStates(campaign.id, {
      [corrupt!.sn]: 'failed',
      [wrongVersion!.sn]: 'failed',
    });
    t.clock.advance(9 * MINUTE);
    await slow!.report(slow!.lastJob!.jobId, { state: 'downloading', progress: 10 });
    await slow!.report(slow!.lastJob!.jobId, { state: 'downloading', progress: 60 });
    await slow!.report(slow!.lastJob!.jobId, { state: 'verified', sha256: firmware.sha256 });
    await slow!.report(slow!.lastJob!.jobId, { state: 'downloading', progress: 70 });
    await expectStates(campaign.id, { [slow!.sn]: 'verified' });

    // Nobody heard of the stalled device for longer than the notified step allows.
    t.clock.advance(2 * MINUTE);
    await tick();
    const devices = await campaignDevices(admin, campaign.id);
    expect(devices.get(stalled!.sn)).toMatchObject({
      state: 'failed',
      error: 'timeout in notified',
    });
    expect(devices.get(corrupt!.sn)).toMatchObject({ state: 'failed', error: 'sha256 mismatch' });
    expect(devices.get(wrongVersion!.sn)).toMatchObject({
      state: 'failed',
      error: 'version mismatch',
    });
    // The slow device reported two minutes ago: it is still within its step.
    expect(devices.get(slow!.sn)).toMatchObject({ state: 'verified', progress: 100 });
    expect((await otaLogs(stalled!.id)).map((l) => l.state)).toEqual(['timeout']);
    expect((await otaLogs(corrupt!.id)).map((l) => l.state)).toEqual(['failed']);

    await slow!.report(slow!.lastJob!.jobId, { state: 'updating' });
    await slow!.disconnect();
    await slow!.connect('2.0.0');
    await expectStates(campaign.id, { [slow!.sn]: 'updated' });
    await tick();
    // Three of four failed, over the threshold of 20 %: the campaign failed.
    await expectCampaign(admin, campaign.id, {
      state: 'failed',
      thresholdWave: 0,
      counts: { failed: 3, updated: 1 },
    });

    const retried = await admin.post('/campaign/retry', { id: campaign.id });
    expect(retried.json()).toMatchObject({
      message: 'The failed devices are queued again',
      result: { count: 3 },
    });
    const again = await expectCampaign(admin, campaign.id, {
      state: 'running',
      thresholdWave: null,
      endTime: null,
      counts: { queued: 3, updated: 1 },
    });
    expect(again.counts.failed).toBe(0);
    const requeued = await campaignDevices(admin, campaign.id);
    expect(requeued.get(corrupt!.sn)).toMatchObject({ state: 'queued', attempts: 2, error: null });

    await tick();
    const failedOnes = [stalled!, corrupt!, wrongVersion!];
    const jobs = await Promise.all(failedOnes.map((d) => jobArrives(d, 2)));
    for (const [i, d] of failedOnes.entries()) expect(jobs[i]!.jobId).not.toBe(d.jobs[0]!.jobId);
    // A report of the first attempt's job changes nothing.
    await corrupt!.report(corrupt!.jobs[0]!.jobId, { state: 'failed', error: 'old news' });
    for (const [i, d] of failedOnes.entries()) await d.upgrade(jobs[i]!.jobId, jobs[i]!.payload);
    await expectStates(campaign.id, byState(all, 'updated'));
    await tick();
    await expectCampaign(admin, campaign.id, { state: 'completed', counts: { updated: 4 } });
  });

  it('cancels queued and running devices; what they report later changes nothing', async () => {
    const devices = await fleet(3);
    const campaign = await upgrade(devices, { maxConcurrent: 1 });
    await tick();
    const job = await jobArrives(devices[0]!);
    await devices[0]!.report(job.jobId, { state: 'downloading', progress: 30 });
    await expectStates(campaign.id, { [devices[0]!.sn]: 'downloading' });
    const canceled = await admin.ok('POST', '/campaign/cancel', { id: campaign.id });
    expect(canceled).toMatchObject({ state: 'canceled', counts: { canceled: 3 } });
    await devices[0]!.upgrade(job.jobId, job.payload);
    await tick();
    await expectDevice(admin, devices[0]!.sn, { version: '2.0.0' });
    expect(await states(campaign.id)).toEqual(byState(devices, 'canceled'));
    expect(devices.slice(1).every((d) => d.jobs.length === 0)).toBe(true);
  });

  it('starts devices only inside the window, each after its jitter', async () => {
    const devices = await fleet(2);
    const minuteOfDay = Math.floor(t.clock.now / MINUTE) % (24 * 60);
    const at = (m: number) => {
      const wrapped = (m + 24 * 60) % (24 * 60);
      return `${String(Math.floor(wrapped / 60)).padStart(2, '0')}:${String(wrapped % 60).padStart(2, '0')}`;
    };
    const campaign = await upgrade(devices, {
      window: { start: at(minuteOfDay + 60), end: at(minuteOfDay + 180), utcOffsetMinutes: 0 },
      jitterSec: 120,
    });
    await tick();
    expect(await states(campaign.id)).toEqual(byState(devices, 'queued'));

    t.clock.advance(61 * MINUTE);
    // Their turn came: each waits for its random delay of up to two minutes first.
    await tick();
    expect(await states(campaign.id)).toEqual(byState(devices, 'queued'));
    t.clock.advance(2 * MINUTE);
    await tick();
    await expectStates(campaign.id, byState(devices, 'notified'));
    await Promise.all(devices.map((d) => jobArrives(d)));
  });

  it('two nodes ticking at once start each device once, within maxConcurrent', async () => {
    const devices = await fleet(6);
    const campaign = await upgrade(devices, { maxConcurrent: 4 });
    const otherNode = secondNode();
    await Promise.all([tick(), otherNode.tick(), tick(), otherNode.tick()]);
    await otherNode.close();
    await vi.waitFor(() => expect(devices.reduce((sum, d) => sum + d.jobs.length, 0)).toBe(4), {
      timeout: 5000,
      interval: 20,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(devices.map((d) => d.jobs.length)).toEqual([1, 1, 1, 1, 0, 0]);
    expect(await expectCampaign(admin, campaign.id, {})).toMatchObject({
      counts: { notified: 4, queued: 2 },
    });
  });

  it('applies a configuration patch over a group, device by device', async () => {
    const groupId = (await admin.ok('POST', '/device/group/add', { name: 'Config group' })).id;
    const add = async (series: 'R40' | 'BL10X') => {
      const sn = uniqueSn('CFG');
      const { id } = await admin.ok('POST', '/device/device/add', {
        tokenId,
        sn,
        name: sn,
        series,
        groupId,
      });
      const device = new RemoteDevice(url, sn, key, series);
      connected.push(device);
      return Object.assign(device, { id: id as string });
    };
    const applies = await add('R40');
    const refuses = await add('R40');
    refuses.configMode = 'refuse';
    const away = await add('R40');
    const otherSeries = await add('BL10X');
    for (const d of [applies, refuses, otherSeries]) {
      await d.connect();
      await expectDevice(admin, d.sn, { status: 'online' });
    }
    const campaign = await createCampaign(admin, {
      name: 'Heartbeat',
      kind: 'config',
      series: 'R40',
      configPatch: { heartbeatSec: 45, wifi: { ssid: 'plant-7', password: 'plant-7-secret' } },
      target: { groupId },
      failureThresholdPercent: 50,
    });
    expect(campaign.total).toBe(3);
    // The password goes to the devices, never back out of the API.
    expect(campaign.configPatch).toEqual({
      heartbeatSec: 45,
      wifi: { ssid: 'plant-7', password: SECRET_MASK },
    });
    const shown = await admin.ok('GET', `/campaign/detail?id=${campaign.id}`);
    expect(JSON.stringify(shown)).not.toContain('plant-7-secret');
    await tick();
    await expectStates(campaign.id, { [applies.sn]: 'updated', [refuses.sn]: 'failed' });
    const refused = (await campaignDevices(admin, campaign.id)).get(refuses.sn);
    expect(refused).toMatchObject({ error: 'wifi.channel: not supported by this radio' });
    expect(applies.config).toMatchObject({
      heartbeatSec: 45,
      wifi: { ssid: 'plant-7', password: 'plant-7-secret', channel: 0 },
    });
    expect(otherSeries.of('config')).toEqual([]);
    await expectCampaign(admin, campaign.id, { waitingOffline: 1, counts: { queued: 1 } });

    await away.connect();
    await expectDevice(admin, away.sn, { status: 'online' });
    await tick();
    await expectStates(campaign.id, { [away.sn]: 'updated' });
    const state = (await admin.ok(
      'GET',
      `/device/config?deviceId=${away.id}`,
    )) as TDeviceConfigState;
    expect(state).toMatchObject({
      state: 'applied',
      desired: { config: { heartbeatSec: 45 }, changedBy: 'admin' },
    });
    await tick();
    await expectCampaign(admin, campaign.id, {
      state: 'completed-with-failures',
      counts: { updated: 2, failed: 1 },
    });
  });

  it('gates a configuration campaign the same way: wave by wave, with approval', async () => {
    const groupId = (await admin.ok('POST', '/device/group/add', { name: 'Gated config' })).id;
    const devices: RemoteDevice[] = [];
    for (let i = 0; i < 2; i += 1) {
      const sn = `${uniqueSn('GCF')}-${i}`;
      await admin.ok('POST', '/device/device/add', {
        tokenId,
        sn,
        name: sn,
        series: 'R40',
        groupId,
      });
      const device = new RemoteDevice(url, sn, key, 'R40');
      connected.push(device);
      await device.connect();
      await expectDevice(admin, sn, { status: 'online' });
      devices.push(device);
    }
    const campaign = await createCampaign(admin, {
      name: 'Gated heartbeat',
      kind: 'config',
      series: 'R40',
      configPatch: { heartbeatSec: 50 },
      target: { groupId },
      waves: [50, 100],
      approveEachWave: true,
    });
    await tick();
    await expectStates(campaign.id, { [devices[0]!.sn]: 'updated', [devices[1]!.sn]: 'queued' });
    await tick();
    await expectCampaign(admin, campaign.id, { currentWave: 0, gate: 'approval' });
    expect(devices[1]!.of('config')).toEqual([]);

    await admin.ok('POST', '/campaign/approve', { id: campaign.id });
    await tick();
    await expectStates(campaign.id, byState(devices, 'updated'));
    expect(devices[1]!.config).toMatchObject({ heartbeatSec: 50 });
    await tick();
    await expectCampaign(admin, campaign.id, { state: 'completed' });
  });
});
