import { createHash } from 'node:crypto';
import {
  ZOtaReportPayload,
  ZStatusPayload,
  downTopic,
  upTopic,
  type TOtaDownPayload,
  type TOtaReportPayload,
  deviceAddress,
} from '@blrms/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeviceFaults } from './faults.js';
import { startFleet, type Fleet, type StartFleetOptions } from './fleet.js';
import { startTestBroker, until, type TestBroker } from './test-broker.js';
import { startFirmwareServer, type TestFirmwareServer } from './test-firmware-server.js';

const TOKEN = 'sim-ota-token';
const CODE = 'SIMTEST1';
const at = (sn: string) => deviceAddress(CODE, sn);
const SIZE = 1024 * 1024;

let broker: TestBroker;
let files: TestFirmwareServer;
const fleets: Fleet[] = [];

beforeEach(async () => {
  broker = await startTestBroker(TOKEN);
  files = await startFirmwareServer(SIZE);
});

afterEach(async () => {
  await Promise.all(fleets.splice(0).map((fleet) => fleet.stop()));
  await broker.close();
  await files.close();
});

async function device(
  sn: string,
  faults?: DeviceFaults,
  options: Partial<StartFleetOptions> = {},
): Promise<Fleet> {
  const fleet = await startFleet({
    url: broker.url,
    token: TOKEN,
    tokenCode: CODE,
    devices: [{ sn, series: 'R40', fw: '2.1.4', ...(faults ? { faults } : {}) }],
    rebootDelayMs: 200,
    downloadRetryMs: 50,
    ...options,
  });
  fleets.push(fleet);
  return fleet;
}

const json = (payload: Buffer): unknown => JSON.parse(payload.toString());
const reportsOf = (sn: string, jobId: string): TOtaReportPayload[] =>
  broker.published
    .filter((m) => m.topic === upTopic(at(sn), 'ota', jobId))
    .map((m) => ZOtaReportPayload.parse(json(m.payload)));
const statusesOf = (sn: string) =>
  broker.published
    .filter((m) => m.topic === upTopic(at(sn), 'status'))
    .map((m) => ZStatusPayload.parse(json(m.payload)));
const ended = (sn: string, jobId: string) =>
  reportsOf(sn, jobId).some((r) => r.state === 'updating' || r.state === 'failed');

function notify(sn: string, jobId: string, job: Partial<TOtaDownPayload> = {}) {
  const payload: TOtaDownPayload = {
    version: '2.2.0',
    url: files.url(),
    size: SIZE,
    sha256: files.sha256,
    ...job,
  };
  return broker.publish(downTopic(at(sn), 'ota', jobId), JSON.stringify(payload));
}

describe('firmware upgrade on a simulated device', () => {
  it('downloads, verifies, installs, reboots and comes back with the new version', async () => {
    const fleet = await device('OTA-1');
    await notify('OTA-1', 'job-1');
    await until(() => statusesOf('OTA-1').length === 3, 'the status after the reboot');

    const reports = reportsOf('OTA-1', 'job-1');
    const progress = reports.filter((r) => r.state === 'downloading').map((r) => r.progress);
    // Every tenth, not every chunk.
    expect(progress).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(reports.slice(progress.length)).toEqual([
      { state: 'downloaded', sha256: files.sha256 },
      { state: 'verified', sha256: files.sha256 },
      { state: 'updating' },
    ]);
    expect(statusesOf('OTA-1')).toEqual([
      expect.objectContaining({ online: true, fw: '2.1.4' }),
      { online: false },
      expect.objectContaining({ online: true, fw: '2.2.0' }),
    ]);
    expect(files.requests).toEqual([
      { path: '/firmware.bin', range: undefined, status: 200, from: '127.0.0.1' },
    ]);
    expect(fleet.counters).toMatchObject({
      upgradeJobs: 1,
      downloads: 1,
      downloadBytes: SIZE,
      downloadsActive: 0,
      upgrades: 1,
      upgradesFailed: 0,
      reboots: 1,
    });
    expect(fleet.agent('OTA-1')?.firmware).toBe('2.2.0');
  });

  it('a download cut half way resumes with a Range request and still hashes right', async () => {
    const fleet = await device('OTA-2', { dropMidDownload: true });
    await notify('OTA-2', 'job-2');
    await until(() => statusesOf('OTA-2').length === 3, 'the status after the reboot');

    expect(files.requests).toHaveLength(2);
    const [first, resumed] = files.requests;
    expect(first).toMatchObject({ range: undefined, status: 200 });
    const from = Number(/^bytes=(\d+)-$/.exec(resumed?.range ?? '')?.[1]);
    expect(resumed?.status).toBe(206);
    expect(from).toBeGreaterThanOrEqual(SIZE / 2);
    expect(from).toBeLessThan(SIZE);
    expect(reportsOf('OTA-2', 'job-2').slice(-3)).toEqual([
      { state: 'downloaded', sha256: files.sha256 },
      { state: 'verified', sha256: files.sha256 },
      { state: 'updating' },
    ]);
    expect(statusesOf('OTA-2').at(-1)).toMatchObject({ online: true, fw: '2.2.0' });
    // Each byte counted once: the resumed request asked only for the rest.
    expect(fleet.counters).toMatchObject({ downloadResumes: 1, downloadBytes: SIZE, upgrades: 1 });
  });

  it('a corrupted download fails the check with the sha256 it computed, and the device stays', async () => {
    const fleet = await device('OTA-3', { corruptDownload: true });
    await notify('OTA-3', 'job-3');
    await until(() => ended('OTA-3', 'job-3'), 'the end of the job');

    const corrupted = Buffer.from(files.image);
    corrupted[0] = (corrupted[0] ?? 0) ^ 0xff;
    const computed = createHash('sha256').update(corrupted).digest('hex');
    expect(reportsOf('OTA-3', 'job-3').slice(-2)).toEqual([
      { state: 'downloaded', sha256: computed },
      { state: 'failed', error: 'sha256 mismatch', sha256: computed },
    ]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(statusesOf('OTA-3')).toEqual([expect.objectContaining({ online: true, fw: '2.1.4' })]);
    expect(fleet.counters).toMatchObject({ upgradesFailed: 1, upgrades: 0, reboots: 0 });
  });

  it('a device that refuses upgrades says so without downloading', async () => {
    const fleet = await device('OTA-4', { refuseUpgrade: true });
    await notify('OTA-4', 'job-4');
    await until(() => ended('OTA-4', 'job-4'), 'the refusal');
    expect(reportsOf('OTA-4', 'job-4')).toEqual([
      { state: 'failed', error: 'upgrade refused by device' },
    ]);
    expect(files.requests).toEqual([]);
    expect(fleet.counters).toMatchObject({ upgradeJobs: 0, upgradesFailed: 1 });
  });

  it('an expired link (403) or a missing file (404) fails the job with the HTTP status', async () => {
    await device('OTA-5');
    await notify('OTA-5', 'job-5', { url: files.url('/expired.bin?exp=1&sig=x') });
    await until(() => ended('OTA-5', 'job-5'), 'the 403');
    await notify('OTA-5', 'job-6', { url: files.url('/gone.bin') });
    await until(() => ended('OTA-5', 'job-6'), 'the 404');
    expect(reportsOf('OTA-5', 'job-5').at(-1)).toEqual({ state: 'failed', error: 'HTTP 403' });
    expect(reportsOf('OTA-5', 'job-6').at(-1)).toEqual({ state: 'failed', error: 'HTTP 404' });
  });

  it('a file of another size than announced fails the job', async () => {
    await device('OTA-6');
    await notify('OTA-6', 'job-7', { size: SIZE + 10 });
    await until(() => ended('OTA-6', 'job-7'), 'the end of the job');
    expect(reportsOf('OTA-6', 'job-7').at(-1)).toEqual({
      state: 'failed',
      error: `size mismatch: received ${SIZE} of ${SIZE + 10} bytes`,
    });
  });

  it('a repeated job is answered with where it stands; a second job meanwhile is refused', async () => {
    await files.close();
    files = await startFirmwareServer(SIZE, 5);
    await device('OTA-7');
    await notify('OTA-7', 'job-8');
    await notify('OTA-7', 'job-8');
    await notify('OTA-7', 'job-9');
    await until(() => statusesOf('OTA-7').length === 3, 'the status after the reboot');
    expect(reportsOf('OTA-7', 'job-9')).toEqual([
      { state: 'failed', error: 'another upgrade is in progress' },
    ]);
    expect(files.requests).toHaveLength(1);
    expect(reportsOf('OTA-7', 'job-8').at(-1)).toEqual({ state: 'updating' });
  });

  it('downloads from the source address the device connects from', async () => {
    await device('OTA-9', undefined, { sourceIps: ['127.0.0.3'] });
    // The platform's default download host is "localhost", which may resolve to ::1 first.
    await notify('OTA-9', 'job-11', { url: files.url('/firmware.bin', 'localhost') });
    await until(() => statusesOf('OTA-9').length === 3, 'the status after the reboot');
    expect(files.requests).toEqual([expect.objectContaining({ status: 200, from: '127.0.0.3' })]);
  });

  it('keeps downloading while its MQTT connection is down, and reports once back', async () => {
    await files.close();
    files = await startFirmwareServer(SIZE, 10);
    const fleet = await device('OTA-8');
    await notify('OTA-8', 'job-10');
    await until(() => reportsOf('OTA-8', 'job-10').length >= 2, 'the first progress');
    fleet.agent('OTA-8')?.drop(150);
    await until(
      () => statusesOf('OTA-8').some((s) => s.online && s.fw === '2.2.0'),
      'the new version',
    );
    expect(reportsOf('OTA-8', 'job-10').slice(-3)).toEqual([
      { state: 'downloaded', sha256: files.sha256 },
      { state: 'verified', sha256: files.sha256 },
      { state: 'updating' },
    ]);
    // The download went on in one piece while the device was away.
    expect(fleet.counters).toMatchObject({ drops: 1, downloadResumes: 0, upgrades: 1 });
    expect(files.requests).toHaveLength(1);
  });
});
