import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import {
  CAMPAIGN_ACTIVE_STATES,
  type TCampaignDeviceState,
  type TCampaignProgress,
  type TFirmware,
} from '@blrms/contracts';
import { startFleet, type Fleet } from '@blrms/device-sim';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import {
  campaignDevices,
  createCampaign,
  expectCampaign,
  uploadFirmware,
} from '../../test/campaign.js';
import { client, type Client } from '../../test/devices.js';
import { uniqueSn } from '../../test/mqtt-devices.js';
import { assignWaves } from './campaign-plan.rules.js';

/*
 * The campaign: 200 simulated devices (device-sim) that download the firmware over HTTP
 * from the running server with its signed URL, check its sha256, reboot and reconnect with the new
 * version; one download arrives corrupt and one is cut off half way (and resumed).
 */

const DEVICES = 200;
const WAVES = [1, 10, 100];
const MAX_CONCURRENT = 40;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(),
      );
    });
  });
}

describe('a campaign over 200 simulated devices', () => {
  let t: TestContext;
  let admin: Client;
  let fleet: Fleet;
  let firmware: TFirmware;
  const sns: string[] = [];
  let corrupt: string;
  let dropped: string;
  const progress: TCampaignProgress[] = [];

  beforeAll(async () => {
    const port = await freePort();
    t = await createTestApp({
      env: { PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` },
      app: { mqtt: { port: 0 }, campaigns: { tickMs: 200 } },
    });
    await t.app.listen({ port, host: '127.0.0.1' });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const token = await admin.ok('POST', '/device/token/add', { name: 'Simulated fleet' });
    firmware = await uploadFirmware(t, admin, {
      series: 'R40',
      version: '2.0.0',
      content: randomBytes(256 * 1024),
    });
    const prefix = uniqueSn('SIM');
    for (let i = 0; i < DEVICES; i += 1) sns.push(`${prefix}-${String(i).padStart(3, '0')}`);
    corrupt = sns[50]!;
    dropped = sns[150]!;
    // Unknown SNs under the token are registered as they connect.
    fleet = await startFleet({
      url: `mqtt://127.0.0.1:${t.app.deviceGateway.port}`,
      token: token.tokenKey,
      tokenCode: token.code,
      devices: sns.map((sn) => ({ sn, series: 'R40' as const, fw: '1.0.0' })),
      faultsBySn: { [corrupt]: { corruptDownload: true }, [dropped]: { dropMidDownload: true } },
      rebootDelayMs: 100,
      downloadRetryMs: 100,
    });
    await vi.waitFor(
      async () =>
        expect(
          (await admin.ok('GET', '/device/device/list?status=online&version=1.0.0&pageSize=1'))
            .total,
        ).toBe(DEVICES),
      { timeout: 20_000, interval: 100 },
    );
    t.bus.subscribe('campaign.progress', ({ campaign }) => progress.push(campaign));
  }, 60_000);
  afterAll(async () => {
    await fleet?.stop();
    await t?.close();
  });

  it('upgrades every device wave by wave; the corrupt download fails, the dropped one resumes', async () => {
    const campaign = await createCampaign(admin, {
      name: 'R40 2.0.0',
      kind: 'ota',
      firmwareId: firmware.id,
      target: { series: 'R40', versionTo: '1.9' },
      waves: WAVES,
      maxConcurrent: MAX_CONCURRENT,
    });
    expect(campaign.total).toBe(DEVICES);
    const done = await expectCampaign(
      admin,
      campaign.id,
      { state: 'completed-with-failures' },
      60_000,
    );
    expect(done.counts).toMatchObject({ updated: DEVICES - 1, failed: 1, queued: 0 });

    const devices = await campaignDevices(admin, campaign.id);
    const expected = Object.fromEntries(
      sns.map((sn): [string, TCampaignDeviceState] => [sn, sn === corrupt ? 'failed' : 'updated']),
    );
    expect(Object.fromEntries([...devices].map(([sn, d]) => [sn, d.state]))).toEqual(expected);
    expect(devices.get(corrupt)).toMatchObject({ error: 'sha256 mismatch', fromVersion: '1.0.0' });
    expect(devices.get(dropped)).toMatchObject({ progress: 100, error: null });
    expect(fleet.counters.downloadResumes).toBeGreaterThanOrEqual(1);
    expect(fleet.agent(dropped)?.firmware).toBe('2.0.0');
    expect(fleet.agent(corrupt)?.firmware).toBe('1.0.0');
    // Waves by SN: 2 devices, then 18, then the rest.
    const waves = assignWaves(DEVICES, WAVES);
    expect(sns.map((sn) => devices.get(sn)?.wave)).toEqual(waves);

    // As the console saw it: no wave began before the one before it was through, never more
    // than maxConcurrent devices at once, and the last word was "completed with failures".
    const own = progress.filter((p) => p.id === campaign.id);
    const ends = WAVES.map((_, w) => waves.filter((x) => x <= w).length);
    for (const p of own) {
      const started = p.total - p.counts.queued;
      expect(started).toBeLessThanOrEqual(ends[p.currentWave]!);
      const active = CAMPAIGN_ACTIVE_STATES.reduce((sum, s) => sum + p.counts[s], 0);
      expect(active).toBeLessThanOrEqual(MAX_CONCURRENT);
    }
    expect(own.map((p) => p.currentWave)).toEqual([...own.map((p) => p.currentWave)].sort());
    expect(own.at(-1)).toMatchObject({ state: 'completed-with-failures', currentWave: 2 });

    // The device list shows what they run now (presence is written in batches).
    await vi.waitFor(
      async () =>
        expect((await admin.ok('GET', '/device/device/list?version=2.0.0&pageSize=1')).total).toBe(
          DEVICES - 1,
        ),
      { timeout: 5000, interval: 100 },
    );

    // Retry the failed device: its link is fixed now, and the second attempt goes through.
    fleet.agent(corrupt)!.faults.corruptDownload = false;
    expect(await admin.ok('POST', '/campaign/retry', { id: campaign.id })).toEqual({ count: 1 });
    await expectCampaign(
      admin,
      campaign.id,
      { state: 'completed', counts: { updated: DEVICES } },
      20_000,
    );
    expect((await campaignDevices(admin, campaign.id)).get(corrupt)).toMatchObject({
      state: 'updated',
      attempts: 2,
      error: null,
    });
  }, 120_000);

  it('cancels a campaign half way: devices not finished are canceled, the finished stay updated', async () => {
    const next = await uploadFirmware(t, admin, {
      series: 'R40',
      version: '2.1.0',
      content: randomBytes(256 * 1024),
    });
    const campaign = await createCampaign(admin, {
      name: 'R40 2.1.0',
      kind: 'ota',
      firmwareId: next.id,
      target: { series: 'R40' },
      maxConcurrent: 10,
    });
    await vi.waitFor(
      async () => {
        const detail = await admin.ok('GET', `/campaign/detail?id=${campaign.id}`);
        expect(detail.counts.updated).toBeGreaterThanOrEqual(20);
      },
      { timeout: 30_000, interval: 50 },
    );
    const canceled = await admin.ok('POST', '/campaign/cancel', { id: campaign.id });
    const { counts } = canceled;
    expect(canceled.state).toBe('canceled');
    expect(counts.updated + counts.canceled).toBe(DEVICES);
    expect(counts.canceled).toBeGreaterThan(100);
    // Devices that were mid-upgrade finish on their own; the campaign tells them nothing more and
    // its counts stay as they were.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await admin.ok('GET', `/campaign/detail?id=${campaign.id}`)).counts).toEqual(counts);
    const upgraded = fleet.agents.filter((a) => a.firmware === '2.1.0').length;
    expect(upgraded).toBeGreaterThanOrEqual(counts.updated);
    expect(upgraded).toBeLessThanOrEqual(counts.updated + 10);
  }, 60_000);
});
