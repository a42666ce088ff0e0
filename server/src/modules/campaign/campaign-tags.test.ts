import { randomBytes } from 'node:crypto';
import type { TCampaignDeviceState, TFirmware } from '@blrms/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, type TestContext, fieldText } from '../../test/app.js';
import {
  OtaDevice,
  campaignDevices,
  createCampaign,
  expectCampaign,
  uploadFirmware,
} from '../../test/campaign.js';
import { client, type Client } from '../../test/devices.js';
import {
  credentialOf,
  expectDevice,
  uniqueSn,
  type TokenCredential,
} from '../../test/mqtt-devices.js';
import { RemoteDevice } from '../../test/remote-device.js';

/*
 * Tag targets (issue 20) over real MQTT connections: an upgrade campaign and a bulk configuration
 * naming tags reach the devices that carry one of them when the campaign is created, and no other.
 */

const MINUTE = 60_000;

describe('campaigns and bulk configuration by tag', () => {
  let t: TestContext;
  let admin: Client;
  let url: string;
  let key: TokenCredential;
  let tokenId: string;
  let firmware: TFirmware;
  const connected: { disconnect(): Promise<void> }[] = [];

  const tick = () => t.app.campaignEngine.tick();

  async function register(sn: string, tags: string[]) {
    const { id } = await admin.ok('POST', '/device/device/add', {
      tokenId,
      sn,
      name: sn,
      series: 'R40',
      version: '1.0.0',
      tags,
    });
    return id as string;
  }

  async function states(id: string): Promise<Record<string, TCampaignDeviceState>> {
    const devices = await campaignDevices(admin, id);
    return Object.fromEntries([...devices].map(([sn, d]) => [sn, d.state]));
  }

  beforeAll(async () => {
    t = await createTestApp({
      app: { mqtt: { port: 0 }, campaigns: { tickMs: 60 * MINUTE } },
    });
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    url = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
    const token = await admin.ok('POST', '/device/token/add', { name: 'Tagged fleet' });
    key = credentialOf(token);
    tokenId = token.id;
    firmware = await uploadFirmware(t, admin, {
      series: 'R40',
      version: '2.0.0',
      content: randomBytes(2048),
    });
  });
  afterEach(async () => {
    await Promise.all(connected.splice(0).map((d) => d.disconnect()));
  });
  afterAll(() => t.close());

  it('upgrades only the devices with one of the tags, counted the same by the preview', async () => {
    const prefix = uniqueSn('TAGOTA');
    const plan = [
      ['a', ['north']],
      ['b', ['south', 'pilot']],
      ['c', ['south']],
      ['d', []],
    ] as const;
    const devices = new Map<string, OtaDevice>();
    for (const [suffix, tags] of plan) {
      const sn = `${prefix}-${suffix}`;
      await register(sn, [...tags]);
      const device = new OtaDevice(url, sn, key);
      connected.push(device);
      await device.connect('1.0.0');
      await expectDevice(admin, sn, { status: 'online' });
      devices.set(suffix, device);
    }
    const target = { tags: ['north', 'pilot'] };
    const preview = await admin.ok('POST', '/campaign/preview', {
      kind: 'ota',
      firmwareId: firmware.id,
      target,
    });
    expect(preview).toMatchObject({ total: 2 });

    const campaign = await createCampaign(admin, {
      name: 'Tagged upgrade',
      kind: 'ota',
      firmwareId: firmware.id,
      target,
    });
    expect(campaign.total).toBe(2);
    expect(campaign.target).toMatchObject(target);
    // Resolved at creation, like a group: a tag added later changes nothing.
    await admin.ok('POST', '/device/tags/add', {
      ids: [(await admin.ok('GET', `/device/device/list?sn=${prefix}-c`)).records[0].id],
      tags: ['north'],
    });
    await tick();
    const a = devices.get('a')!;
    const b = devices.get('b')!;
    await vi.waitFor(() => expect(a.jobs.length + b.jobs.length).toBe(2), {
      timeout: 5000,
      interval: 20,
    });
    await a.upgrade(a.lastJob!.jobId, a.lastJob!.payload);
    await b.upgrade(b.lastJob!.jobId, b.lastJob!.payload);
    await vi.waitFor(
      async () =>
        expect(await states(campaign.id)).toEqual({
          [a.sn]: 'updated',
          [b.sn]: 'updated',
        }),
      { timeout: 5000, interval: 25 },
    );
    await tick();
    await expectCampaign(admin, campaign.id, { state: 'completed' });
    expect(devices.get('c')!.jobs).toEqual([]);
    expect(devices.get('d')!.jobs).toEqual([]);
  });

  it('configures only the tagged devices in a bulk configuration', async () => {
    const tag = `cfg-${uniqueSn('T').slice(-6)}`;
    const tagged: RemoteDevice[] = [];
    const others: RemoteDevice[] = [];
    for (let i = 0; i < 4; i += 1) {
      const sn = `${uniqueSn('TAGCFG')}-${i}`;
      await register(sn, i < 2 ? [tag] : ['elsewhere']);
      const device = new RemoteDevice(url, sn, key, 'R40');
      connected.push(device);
      await device.connect();
      await expectDevice(admin, sn, { status: 'online' });
      (i < 2 ? tagged : others).push(device);
    }
    const body = { kind: 'config' as const, series: 'R40' as const, target: { tags: [tag] } };
    expect(await admin.ok('POST', '/campaign/preview', body)).toMatchObject({ total: 2 });
    const campaign = await createCampaign(admin, {
      name: 'Tagged heartbeat',
      ...body,
      configPatch: { heartbeatSec: 42 },
    });
    expect(campaign.total).toBe(2);
    await tick();
    await vi.waitFor(
      async () =>
        expect(await states(campaign.id)).toEqual(
          Object.fromEntries(tagged.map((d) => [d.sn, 'updated'])),
        ),
      { timeout: 5000, interval: 25 },
    );
    for (const d of tagged) expect(d.config).toMatchObject({ heartbeatSec: 42 });
    for (const d of others) expect(d.of('config')).toEqual([]);
  });

  it('refuses bad tags in a target naming the field, and a tag nobody carries', async () => {
    const bad = await admin.post('/campaign/add', {
      name: 'Bad',
      kind: 'ota',
      firmwareId: firmware.id,
      target: { tags: ['a,b'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(fieldText(bad.json())).toMatch(/^target\.tags\.0: /);
    const empty = await admin.post('/campaign/add', {
      name: 'Nobody',
      kind: 'ota',
      firmwareId: firmware.id,
      target: { tags: ['nobody-has-this'] },
    });
    expect(empty.statusCode).toBe(400);
    expect(fieldText(empty.json())).toMatch(/^target: no devices match/);
  });
});
