import { randomBytes } from 'node:crypto';
import type { TCampaign, TCampaignCreateInput, TFirmware } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext, fieldText } from '../../test/app.js';
import { campaignDevices, createCampaign, uploadFirmware } from '../../test/campaign.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import {
  DEVICE_PAGES,
  client,
  createDataRule,
  createRole,
  type Client,
} from '../../test/devices.js';

/*
 * The campaign API without devices connected: targets and what they refuse, tenancy, data rules,
 * permissions, and the controls. The rollout itself is in campaign-engine.test.ts and
 * campaign-fleet.test.ts.
 */

describe('campaign API', () => {
  let t: TestContext;
  let admin: Client;
  let acme: Client;
  let firmware: TFirmware;
  let acmeFirmware: TFirmware;
  let groupId: string;
  let acmeGroupId: string;
  /** Platform devices by SN: R40-1..6 at 1.0.0 (1–4 in the group), R40-7 at 2.0.0, BL10X-1..2. */
  const ids = new Map<string, string>();
  let acmeDeviceId: string;

  const count = async (as: Client) => (await as.ok('GET', '/campaign/list')).total as number;

  function ota(overrides: Partial<TCampaignCreateInput> = {}): TCampaignCreateInput {
    return {
      name: 'Upgrade',
      kind: 'ota',
      firmwareId: firmware.id,
      target: { groupId },
      ...overrides,
    };
  }

  async function refused(as: Client, body: object, status: number, message: RegExp | string) {
    const before = await count(as);
    const res = await as.post('/campaign/add', body);
    expect(res.statusCode, res.body).toBe(status);
    expect(fieldText(res.json())).toMatch(message);
    expect(await count(as)).toBe(before);
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    const token = await admin.ok('POST', '/device/token/add', { name: 'Fleet' });
    groupId = (await admin.ok('POST', '/device/group/add', { name: 'Pilot' })).id;
    const add = async (sn: string, series: string, version: string, inGroup: boolean) => {
      const device = await admin.ok('POST', '/device/device/add', {
        tokenId: token.id,
        sn,
        name: `name of ${sn}`,
        series,
        version,
        ...(inGroup ? { groupId } : {}),
      });
      ids.set(sn, device.id);
    };
    for (let i = 1; i <= 6; i += 1) await add(`R40-${i}`, 'R40', '1.0.0', i <= 4);
    await add('R40-7', 'R40', '2.0.0', true);
    await add('BL10X-1', 'BL10X', '1.0.0', true);
    await add('BL10X-2', 'BL10X', '1.0.0', false);
    firmware = await uploadFirmware(t, admin, {
      series: 'R40',
      version: '2.0.0',
      content: randomBytes(4096),
    });

    await createCompanyAdmin(t, {
      code: 'acme',
      username: 'acme-admin',
      password: 'Acme-Admin-Pass-1',
      perms: [
        'device:list',
        'device:add',
        'token:add',
        'group:add',
        'firmware:list',
        'firmware:upload',
        'campaign:list',
        'campaign:add',
        'campaign:control',
      ],
    });
    acme = client(t, await t.login('acme-admin', 'Acme-Admin-Pass-1'));
    const acmeToken = await acme.ok('POST', '/device/token/add', { name: 'Acme' });
    acmeGroupId = (await acme.ok('POST', '/device/group/add', { name: 'Acme pilot' })).id;
    acmeDeviceId = (
      await acme.ok('POST', '/device/device/add', {
        tokenId: acmeToken.id,
        sn: 'ACME-1',
        name: 'acme device',
        series: 'R40',
        version: '1.0.0',
        groupId: acmeGroupId,
      })
    ).id;
    acmeFirmware = await uploadFirmware(t, acme, {
      series: 'R40',
      version: '2.0.0',
      content: randomBytes(1024),
    });
  });
  afterAll(() => t.close());

  describe('preview', () => {
    it('counts a group narrowed to the firmware’s series, leaving out devices already on it', async () => {
      const preview = await admin.ok('POST', '/campaign/preview', {
        kind: 'ota',
        firmwareId: firmware.id,
        target: { groupId },
      });
      // R40-1..4; R40-7 (already 2.0.0) and BL10X-1 (another series) are left out.
      expect(preview).toEqual({ total: 4, online: 0, excluded: 2 });
    });

    it('narrows by version range and online state', async () => {
      const inRange = await admin.ok('POST', '/campaign/preview', {
        kind: 'ota',
        firmwareId: firmware.id,
        target: { series: 'R40', versionFrom: '0.9', versionTo: '1.0.0' },
      });
      expect(inRange).toEqual({ total: 6, online: 0, excluded: 0 });
      const above = await admin.ok('POST', '/campaign/preview', {
        kind: 'ota',
        firmwareId: firmware.id,
        target: { series: 'R40', versionFrom: '1.0.1' },
      });
      // Only R40-7 (2.0.0) is in range, and it already runs the firmware.
      expect(above).toEqual({ total: 0, online: 0, excluded: 1 });
      const online = await admin.ok('POST', '/campaign/preview', {
        kind: 'config',
        series: 'BL10X',
        target: { series: 'BL10X', onlineOnly: true },
      });
      expect(online).toEqual({ total: 0, online: 0, excluded: 0 });
    });
  });

  describe('bad input is refused with the field named, and nothing is created', () => {
    it.each([
      ['no firmware for an upgrade', { firmwareId: undefined }, /^firmwareId: required/],
      ['waves that do not rise', { waves: [50, 40, 100] }, /^waves: must rise and end at 100/],
      ['waves that stop short', { waves: [10, 50] }, /^waves: must rise and end at 100/],
      ['no concurrency', { maxConcurrent: 0 }, /^maxConcurrent: must be at least 1/],
      ['a threshold over 100 %', { failureThresholdPercent: 120 }, /^failureThresholdPercent:/],
      [
        'a window of bad times',
        { window: { start: '25:00', end: '06:00', utcOffsetMinutes: 480 } },
        /^window\.start: must be HH:mm/,
      ],
      ['a jitter over an hour', { jitterSec: 7200 }, /^jitterSec: must be at most 3600/],
      ['a negative soak time', { soakMinutes: -1 }, /^soakMinutes: must be at least 0/],
      ['a wave deadline of no time', { waveDeadlineMinutes: 0 }, /^waveDeadlineMinutes: /],
      ['an unknown deadline action', { onWaveDeadline: 'wait' }, /^onWaveDeadline: /],
      ['a start time that is no time', { startAt: 'tonight' }, /^startAt: /],
      [
        'an empty target',
        { target: {} },
        /^target\.deviceIds: name devices, a group, a series or tags/,
      ],
      [
        'an inverted version range',
        { target: { series: 'R40', versionFrom: '2', versionTo: '1' } },
        /^target\.versionTo: must not be before versionFrom/,
      ],
      [
        'a series other than the firmware’s',
        { target: { series: 'BL10X' } },
        /^target\.series: must be R40/,
      ],
      [
        'a configuration without series',
        { kind: 'config', configPatch: { heartbeatSec: 30 } },
        /^series: required/,
      ],
      [
        'a configuration that changes nothing',
        { kind: 'config', series: 'R40', configPatch: {} },
        /^configPatch: must change something/,
      ],
    ])('%s', async (_, overrides, message) => {
      await refused(admin, ota(overrides as Partial<TCampaignCreateInput>), 400, message);
    });

    it('a configuration patch outside the series’ schema', async () => {
      await refused(
        admin,
        {
          ...ota({ kind: 'config', series: 'R40', configPatch: { wifi: { channel: 99 } } }),
          firmwareId: undefined,
        },
        400,
        /^configPatch\.wifi\.channel: /,
      );
    });

    it('listed devices of another series than the firmware’s, by SN', async () => {
      await refused(
        admin,
        ota({
          target: { deviceIds: [ids.get('R40-1')!, ids.get('BL10X-1')!, ids.get('BL10X-2')!] },
        }),
        400,
        'target.deviceIds: 2 device(s) are not R40: BL10X-1, BL10X-2',
      );
    });

    it('a target that leaves no device', async () => {
      await refused(
        admin,
        ota({ target: { deviceIds: [ids.get('R40-7')!] } }),
        400,
        'target: no devices match (1 left out)',
      );
      await refused(
        admin,
        ota({ target: { groupId, onlineOnly: true } }),
        400,
        /^target: no devices match/,
      );
    });

    it('in Chinese too', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/campaign/add',
        headers: { ...admin.headers, 'accept-language': 'zh-CN' },
        payload: ota({ target: { series: 'S27X' } }),
      });
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('target.series: 必须是 R40（固件或配置所属的系列）');
      const waves = await t.app.inject({
        method: 'POST',
        url: '/api/campaign/add',
        headers: { ...admin.headers, 'accept-language': 'zh-CN' },
        payload: ota({ waves: [10, 5, 100] }),
      });
      expect(fieldText(waves.json())).toBe('waves: 必须逐批递增并以 100 结束（累计百分比）');
    });
  });

  describe('tenancy', () => {
    let platformCampaign: TCampaign;
    beforeAll(async () => {
      platformCampaign = await createCampaign(admin, ota({ name: 'Platform upgrade' }));
    });

    it('refuses devices, groups and firmware of another company, naming them', async () => {
      await refused(
        acme,
        ota({
          firmwareId: acmeFirmware.id,
          target: { deviceIds: [acmeDeviceId, ids.get('R40-1')!] },
        }),
        404,
        `target.deviceIds: 1 device(s) not found: ${ids.get('R40-1')}`,
      );
      await refused(
        acme,
        ota({ firmwareId: acmeFirmware.id, target: { groupId } }),
        404,
        'target.groupId: group not found',
      );
      await refused(
        acme,
        ota({ target: { groupId: acmeGroupId } }),
        404,
        'firmwareId: firmware not found',
      );
      const preview = await acme.post('/campaign/preview', {
        kind: 'ota',
        firmwareId: acmeFirmware.id,
        target: { deviceIds: [ids.get('R40-2')!] },
      });
      expect(preview.statusCode).toBe(404);
    });

    it('shows and controls only the company’s campaigns', async () => {
      const own = await createCampaign(
        acme,
        ota({ firmwareId: acmeFirmware.id, target: { groupId: acmeGroupId } }),
      );
      expect(own).toMatchObject({ total: 1, state: 'running', counts: { queued: 1 } });
      const list = await acme.ok('GET', '/campaign/list');
      expect(list.records.map((c: TCampaign) => c.id)).toEqual([own.id]);
      for (const res of [
        await acme.get(`/campaign/detail?id=${platformCampaign.id}`),
        await acme.get(`/campaign/devices?id=${platformCampaign.id}`),
        await acme.post('/campaign/pause', { id: platformCampaign.id }),
        await acme.post('/campaign/cancel', { id: platformCampaign.id }),
        await acme.post('/campaign/retry', { id: platformCampaign.id }),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Campaign not found');
      }
      expect(await admin.ok('GET', `/campaign/detail?id=${platformCampaign.id}`)).toMatchObject({
        state: 'running',
      });
    });
  });

  describe('data rules and permissions', () => {
    let narrow: Client;
    let viewer: Client;
    let operator: Client;
    beforeAll(async () => {
      const onlyBl10x = await createDataRule(t, 'device-list', {
        column: 'series',
        operator: 'EQ',
        value: 'BL10X',
      });
      // DEVICE_PAGES holds the campaign and firmware pages; these are their buttons.
      const campaignKeys = ['campaign:add', 'campaign:control'];
      const narrowRole = await createRole(
        t,
        PLATFORM_COMPANY_ID,
        [...DEVICE_PAGES, ...campaignKeys, 'device:config'],
        { 'device-list': [onlyBl10x] },
      );
      await t.createUser({ username: 'narrow', password: 'Narrow-Pass-1', roleIds: [narrowRole] });
      narrow = client(t, await t.login('narrow', 'Narrow-Pass-1'));
      const viewerRole = await createRole(t, PLATFORM_COMPANY_ID, DEVICE_PAGES);
      await t.createUser({ username: 'viewer', password: 'Viewer-Pass-1', roleIds: [viewerRole] });
      viewer = client(t, await t.login('viewer', 'Viewer-Pass-1'));
      const operatorRole = await createRole(t, PLATFORM_COMPANY_ID, [
        ...DEVICE_PAGES,
        ...campaignKeys,
      ]);
      await t.createUser({
        username: 'operator',
        password: 'Operator-Pass-1',
        roleIds: [operatorRole],
      });
      operator = client(t, await t.login('operator', 'Operator-Pass-1'));
    });

    it('refuses listed devices hidden by data rules, and narrows a group to the visible ones', async () => {
      await refused(
        narrow,
        ota({ target: { deviceIds: [ids.get('R40-1')!] } }),
        403,
        `target.deviceIds: no access to 1 device(s): ${ids.get('R40-1')}`,
      );
      // The group holds R40-1..4 and 7, and BL10X-1: of those the user sees BL10X-1 only.
      const preview = await narrow.ok('POST', '/campaign/preview', {
        kind: 'config',
        series: 'BL10X',
        target: { groupId },
      });
      expect(preview).toEqual({ total: 1, online: 0, excluded: 0 });
      const campaign = await createCampaign(narrow, {
        name: 'Baud rate',
        kind: 'config',
        series: 'BL10X',
        configPatch: { serial: { baudRate: 19200 } },
        target: { series: 'BL10X' },
      });
      expect(campaign).toMatchObject({ total: 2, kind: 'config', createBy: 'narrow' });
    });

    it('needs campaign:add to create, device:config for configuration, campaign:control to steer', async () => {
      const body = ota({ name: 'Viewer try' });
      expect((await viewer.post('/campaign/add', body)).statusCode).toBe(403);
      expect(
        (
          await viewer.post('/campaign/preview', {
            kind: 'ota',
            firmwareId: firmware.id,
            target: { groupId },
          })
        ).statusCode,
      ).toBe(403);
      const configuration = {
        name: 'Heartbeat',
        kind: 'config',
        series: 'R40',
        configPatch: { heartbeatSec: 30 },
        target: { groupId },
      };
      await refused(
        operator,
        configuration,
        403,
        'Bulk configuration also needs the device:config permission',
      );
      const campaign = await createCampaign(operator, ota({ name: 'Operator upgrade' }));
      expect((await viewer.post('/campaign/pause', { id: campaign.id })).statusCode).toBe(403);
      expect((await viewer.post('/campaign/approve', { id: campaign.id })).statusCode).toBe(403);
      expect(await viewer.ok('GET', `/campaign/detail?id=${campaign.id}`)).toMatchObject({
        name: 'Operator upgrade',
      });
    });
  });

  describe('a campaign as created', () => {
    it('queues the devices in SN order over the waves, with their names and versions', async () => {
      const campaign = await createCampaign(admin, {
        name: 'Waves',
        kind: 'ota',
        firmwareId: firmware.id,
        target: { series: 'R40' },
        waves: [20, 50, 100],
        maxConcurrent: 2,
        failureThresholdPercent: 30,
        window: { start: '22:00', end: '06:00', utcOffsetMinutes: 480 },
        jitterSec: 30,
        soakMinutes: 15,
        approveEachWave: true,
        waveDeadlineMinutes: 120,
        onWaveDeadline: 'fail',
      });
      expect(campaign).toMatchObject({
        name: 'Waves',
        kind: 'ota',
        state: 'running',
        pausedReason: null,
        firmwareId: firmware.id,
        firmwareVersion: '2.0.0',
        series: 'R40',
        target: { series: 'R40' },
        waves: [20, 50, 100],
        maxConcurrent: 2,
        failureThresholdPercent: 30,
        window: { start: '22:00', end: '06:00', utcOffsetMinutes: 480 },
        jitterSec: 30,
        soakMinutes: 15,
        approveEachWave: true,
        waveDeadlineMinutes: 120,
        onWaveDeadline: 'fail',
        startAt: null,
        gate: null,
        gateUntil: null,
        thresholdWave: null,
        waveDeadline: expect.any(String),
        currentWave: 0,
        total: 6,
        counts: { queued: 6, notified: 0, updated: 0, failed: 0, canceled: 0 },
        createBy: 'admin',
        endTime: null,
      });
      const devices = await campaignDevices(admin, campaign.id);
      // 20 % of 6 → 2 devices, 50 % → 3, then the rest.
      expect([...devices.values()].map((d) => [d.sn, d.wave])).toEqual([
        ['R40-1', 0],
        ['R40-2', 0],
        ['R40-3', 1],
        ['R40-4', 2],
        ['R40-5', 2],
        ['R40-6', 2],
      ]);
      expect(devices.get('R40-1')).toMatchObject({
        deviceId: ids.get('R40-1'),
        name: 'name of R40-1',
        state: 'queued',
        progress: null,
        fromVersion: '1.0.0',
        error: null,
        attempts: 1,
      });
      const filtered = await admin.ok('GET', `/campaign/devices?id=${campaign.id}&sn=40-5`);
      expect(filtered.records.map((d: { sn: string }) => d.sn)).toEqual(['R40-5']);
      const byState = await admin.ok('GET', `/campaign/devices?id=${campaign.id}&state=failed`);
      expect(byState.total).toBe(0);
      const listed = await admin.ok('GET', '/campaign/list?name=Wav');
      expect(listed.records.map((c: TCampaign) => c.id)).toEqual([campaign.id]);
    });

    it('runs no more devices at once than its largest wave holds', async () => {
      // The group's four R40 devices: 25 % → one, then three.
      const campaign = await createCampaign(admin, ota({ name: 'Small', waves: [25, 100] }));
      expect(campaign).toMatchObject({
        maxConcurrent: 3,
        soakMinutes: 0,
        approveEachWave: false,
        waveDeadlineMinutes: null,
        onWaveDeadline: 'continue',
        waveDeadline: null,
      });
      const fewer = await createCampaign(admin, ota({ name: 'Fewer', maxConcurrent: 2 }));
      expect(fewer.maxConcurrent).toBe(2);
    });

    it('pauses, resumes and cancels; refuses what the state does not allow', async () => {
      const campaign = await createCampaign(admin, ota({ name: 'Controls' }));
      const conflict = await admin.post('/campaign/resume', { id: campaign.id });
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json().message).toBe('The campaign is running: this action does not apply');
      expect(await admin.ok('POST', '/campaign/pause', { id: campaign.id })).toMatchObject({
        state: 'paused',
        pausedReason: 'user',
      });
      expect(await admin.ok('POST', '/campaign/resume', { id: campaign.id })).toMatchObject({
        state: 'running',
        pausedReason: null,
      });
      const canceled = await admin.ok('POST', '/campaign/cancel', { id: campaign.id });
      expect(canceled).toMatchObject({
        state: 'canceled',
        counts: { queued: 0, canceled: 4 },
        endTime: expect.any(String),
      });
      for (const action of ['pause', 'resume', 'cancel', 'retry', 'approve']) {
        expect((await admin.post(`/campaign/${action}`, { id: campaign.id })).statusCode).toBe(409);
      }
      const zh = await t.app.inject({
        method: 'POST',
        url: '/api/campaign/pause',
        headers: { ...admin.headers, 'accept-language': 'zh-CN' },
        payload: { id: campaign.id },
      });
      expect(zh.json().message).toBe('任务当前状态为 canceled，不能执行此操作');
    });
  });
});
