import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TSite, TSiteList } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../platform/auth/tokens.js';
import { newId } from '../../platform/db/ids.js';
import { ADMIN_PASSWORD, createTestApp, fieldText, type TestContext } from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import { client, type Client } from '../../test/devices.js';
import { allowImages, siteHealth, tileSource } from './site-map.rules.js';
import { insertDevice } from '../../test/company-devices.js';

const VIEW = ['base:sites:view', 'device:list'];

describe('sites on a map', () => {
  let t: TestContext;
  let platform: Client;
  let acme: Client;
  let acmeId: string;
  let acmeOwner: string;
  let acmeToken: string;
  let beta: Client;
  let betaId: string;
  let betaOwner: string;
  let betaToken: string;
  let blind: Client;
  /** Acme's locations by name. */
  const at: Record<string, string> = {};
  let groupA: string;
  let alarmDevice: string;

  async function company(code: string, perms: string[]) {
    const username = `${code}admin`;
    const password = `${code[0]!.toUpperCase()}${code}-Pass-123`;
    const { companyId, userId } = await createCompanyAdmin(t, { code, username, password, perms });
    const tokenId = newId();
    const key = `${code}-${newId()}`;
    await t.db
      .insertInto('device_token')
      .values({
        id: tokenId,
        company_id: companyId,
        owner_id: userId,
        code: newId().slice(0, 8).toUpperCase(),
        name: code,
        remark: null,
        token_key: key,
        key_hash: sha256(key),
        auto_register: 0,
        enabled: 1,
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();
    return { companyId, userId, tokenId, api: client(t, await t.login(username, password)) };
  }

  async function location(
    companyId: string,
    kind: 'region' | 'site' | 'cabinet',
    name: string,
    parentId: string | null,
    coordinates: [number, number] | null = null,
  ): Promise<string> {
    const id = newId();
    await t.db
      .insertInto('base_location')
      .values({
        id,
        company_id: companyId,
        parent_id: parentId,
        kind,
        name,
        address: null,
        latitude: coordinates?.[0] ?? null,
        longitude: coordinates?.[1] ?? null,
        contact_name: null,
        contact_phone: null,
        sort_no: 0,
        create_by: null,
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();
    return id;
  }

  async function device(
    owner: { companyId: string; userId: string; tokenId: string },
    locationId: string | null,
    status: 'online' | 'offline',
    extra: { series?: string; groupId?: string } = {},
  ): Promise<string> {
    return insertDevice(
      t,
      { companyId: owner.companyId, tokenId: owner.tokenId, ownerId: owner.userId },
      {
        sn: `SM${newId().slice(0, 10)}`,
        name: 'map device',
        series: extra.series ?? 'R40',
        group_id: extra.groupId ?? null,
        status,
        location_id: locationId,
      },
    );
  }

  /** An alarm of the device, as the alarm engine stores one (no rule: a rule deleted since). */
  async function alarm(
    companyId: string,
    deviceId: string,
    state: 'active' | 'acknowledged' | 'cleared',
  ): Promise<void> {
    const id = newId();
    await t.db
      .insertInto('alarm')
      .values({
        id,
        company_id: companyId,
        rule_id: null,
        rule_name: 'temperature',
        condition_type: 'threshold',
        severity: 'major',
        state,
        device_id: deviceId,
        sn: 'SN',
        device_name: 'map device',
        group_id: null,
        message_zh: '温度过高',
        message_en: 'Too hot',
        value: 90,
        count: 1,
        first_time: t.clock.now,
        last_time: t.clock.now,
        ack_by: state === 'active' ? null : 'acmeadmin',
        ack_time: state === 'active' ? null : t.clock.now,
        ack_comment: null,
        clear_by: state === 'cleared' ? 'acmeadmin' : null,
        clear_time: state === 'cleared' ? t.clock.now : null,
        clear_comment: null,
        clear_reason: state === 'cleared' ? 'manual' : null,
        open_key: state === 'cleared' ? null : `${id}:${deviceId}`,
        last_trigger: null,
        next_notify_time: null,
        notified: 0,
      })
      .execute();
  }

  async function sites(api: Client, query = ''): Promise<TSiteList> {
    return (await api.ok('GET', `/base/sites/list${query}`)) as TSiteList;
  }

  const byName = (list: TSiteList) => new Map<string, TSite>(list.sites.map((s) => [s.name, s]));

  beforeAll(async () => {
    const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-console-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>console</title>');
    t = await createTestApp({ webDist });
    platform = client(t, await t.login('admin', ADMIN_PASSWORD));
    const a = await company('acme', [...VIEW, 'base:sites:settings']);
    ({ companyId: acmeId, userId: acmeOwner, tokenId: acmeToken, api: acme } = a);
    const b = await company('beta', VIEW);
    ({ companyId: betaId, userId: betaOwner, tokenId: betaToken, api: beta } = b);
    blind = (await company('gamma', ['device:list'])).api;

    groupA = newId();
    await t.db
      .insertInto('device_group')
      .values({
        id: groupA,
        company_id: acmeId,
        name: 'A',
        remark: null,
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();

    const east = await location(acmeId, 'region', '华东', null, [31, 121]);
    at.allOnline = await location(acmeId, 'site', 'All online', east, [31.23, 121.47]);
    at.someOffline = await location(acmeId, 'site', 'Some offline', east, [30.27, 120.15]);
    at.allOffline = await location(acmeId, 'site', 'All offline', null, [39.9, 116.4]);
    at.alarmed = await location(acmeId, 'site', 'Alarmed', null, [22.54, 114.06]);
    at.acknowledged = await location(acmeId, 'site', 'Acknowledged', null, [23.13, 113.26]);
    at.cleared = await location(acmeId, 'site', 'Cleared only', null, [34.26, 108.94]);
    at.empty = await location(acmeId, 'site', 'Empty', null, [43.82, 125.32]);
    at.noCoordinates = await location(acmeId, 'site', 'Nowhere', east);
    const cabinet = await location(acmeId, 'cabinet', 'Cabinet 1', at.someOffline);

    const acmeDevices = { companyId: acmeId, userId: acmeOwner, tokenId: acmeToken };
    await device(acmeDevices, at.allOnline, 'online', { groupId: groupA });
    await device(acmeDevices, at.allOnline, 'online', { series: 'BL10X' });
    await device(acmeDevices, at.someOffline, 'online');
    // A cabinet's devices count for its site.
    await device(acmeDevices, cabinet, 'offline', { groupId: groupA });
    await device(acmeDevices, at.allOffline, 'offline');
    // Devices at a region or nowhere are on no marker.
    await device(acmeDevices, east, 'offline');
    await device(acmeDevices, null, 'offline');
    alarmDevice = await device(acmeDevices, at.alarmed, 'online');
    await alarm(acmeId, alarmDevice, 'active');
    await alarm(
      acmeId,
      await device(acmeDevices, at.acknowledged, 'online', { series: 'S27X' }),
      'acknowledged',
    );
    await alarm(acmeId, await device(acmeDevices, at.cleared, 'online'), 'cleared');

    const betaSite = await location(betaId, 'site', 'Beta site', null, [31.2, 121.5]);
    await device({ companyId: betaId, userId: betaOwner, tokenId: betaToken }, betaSite, 'online');
  });
  afterAll(() => t.close());

  it('colours each site by its devices and open alarms', async () => {
    const list = await sites(acme);
    const found = byName(list);
    const summary = (name: string) => {
      const s = found.get(name);
      return s && [s.health, s.total, s.online, s.offline, s.alarms];
    };
    expect(summary('All online')).toEqual(['online', 2, 2, 0, 0]);
    expect(summary('Some offline')).toEqual(['partial', 2, 1, 1, 0]);
    expect(summary('All offline')).toEqual(['offline', 1, 0, 1, 0]);
    expect(summary('Alarmed')).toEqual(['alarm', 1, 1, 0, 1]);
    // An acknowledged alarm is still open; a cleared one no longer counts.
    expect(summary('Acknowledged')).toEqual(['alarm', 1, 1, 0, 1]);
    expect(summary('Cleared only')).toEqual(['online', 1, 1, 0, 0]);
    expect(summary('Empty')).toEqual(['empty', 0, 0, 0, 0]);
    // Regions are no markers, nor are sites without coordinates (only counted).
    expect([...found.keys()].sort()).toEqual(
      [
        'Acknowledged',
        'Alarmed',
        'All offline',
        'All online',
        'Cleared only',
        'Empty',
        'Some offline',
      ].sort(),
    );
    expect(list.unplaced).toBe(1);
    expect(list.truncated).toBe(false);
    const online = found.get('All online')!;
    expect([online.id, online.path, online.lat, online.lng]).toEqual([
      at.allOnline,
      '华东/All online',
      31.23,
      121.47,
    ]);
  });

  it('follows the alarm lifecycle: clearing the alarm turns the site green', async () => {
    await t.db
      .updateTable('alarm')
      .set({ state: 'cleared', open_key: null, clear_time: t.clock.now })
      .where('device_id', '=', alarmDevice)
      .execute();
    const site = byName(await sites(acme)).get('Alarmed');
    expect([site?.health, site?.alarms]).toEqual(['online', 0]);
    await alarm(acmeId, alarmDevice, 'active');
    expect(byName(await sites(acme)).get('Alarmed')?.health).toBe('alarm');
  });

  it('filters by device group and series, leaving out sites without such devices', async () => {
    const inGroup = byName(await sites(acme, `?groupId=${groupA}`));
    expect([...inGroup.keys()].sort()).toEqual(['All online', 'Some offline']);
    expect(inGroup.get('All online')).toMatchObject({ total: 1, online: 1, health: 'online' });
    // Only the cabinet's offline device is in the group.
    expect(inGroup.get('Some offline')).toMatchObject({ total: 1, online: 0, health: 'offline' });

    const s27x = byName(await sites(acme, '?series=S27X&_t=1700000000'));
    expect([...s27x.keys()]).toEqual(['Acknowledged']);
    expect(s27x.get('Acknowledged')).toMatchObject({ total: 1, alarms: 1, health: 'alarm' });
    // The alarm of an R40 device does not colour an R40-less filter.
    const bl10x = byName(await sites(acme, '?series=BL10X'));
    expect([...bl10x.keys()]).toEqual(['All online']);

    const bad = await acme.get('/base/sites/list?series=X99');
    expect(bad.statusCode).toBe(400);
    expect(fieldText(bad.json())).toContain('series');
    const badGroup = await acme.get('/base/sites/list?groupId=nope');
    expect(badGroup.statusCode).toBe(400);
    expect(fieldText(badGroup.json())).toContain('groupId');
  });

  it("shows only the caller's company", async () => {
    const mine = await sites(beta);
    expect(mine.sites.map((s) => s.name)).toEqual(['Beta site']);
    expect(mine.unplaced).toBe(0);
    // Another company's group filters to nothing rather than revealing its devices.
    expect((await sites(beta, `?groupId=${groupA}`)).sites).toEqual([]);
    expect((await sites(acme)).sites.map((s) => s.name)).not.toContain('Beta site');
  });

  it('needs base:sites:view', async () => {
    expect((await blind.get('/base/sites/list')).statusCode).toBe(403);
    expect((await blind.get('/base/sites/settings')).statusCode).toBe(403);
  });

  it('keeps the tile server a platform setting, validated, readable by map viewers', async () => {
    expect(await beta.ok('GET', '/base/sites/settings')).toEqual({
      tileUrl: null,
      attribution: null,
    });

    // A company administrator holding the code is still refused: the setting is the platform's.
    const refused = await acme.put('/base/sites/settings', {
      tileUrl: 'https://tiles.example.com/{z}/{x}/{y}.png',
      attribution: null,
    });
    expect(refused.statusCode).toBe(403);
    // Viewers lack the code altogether.
    expect(
      (await beta.put('/base/sites/settings', { tileUrl: null, attribution: null })).statusCode,
    ).toBe(403);

    for (const tileUrl of [
      'ftp://tiles.example.com/{z}/{x}/{y}.png',
      'https://tiles.example.com/{z}/{x}.png',
      'javascript:alert(1)//{z}{x}{y}',
      'https://tiles.example.com;script-src *//{z}/{x}/{y}',
      `https://tiles.example.com/{z}/{x}/{y}.png?k=${'a'.repeat(480)}`,
    ]) {
      const res = await platform.put('/base/sites/settings', { tileUrl, attribution: null });
      expect(res.statusCode, tileUrl).toBe(400);
      expect(fieldText(res.json()), tileUrl).toContain('tileUrl');
    }
    const chinese = await client(t, await t.login('admin', ADMIN_PASSWORD), 'zh-CN').put(
      '/base/sites/settings',
      { tileUrl: 'https://tiles.example.com/{z}/{x}.png', attribution: null },
    );
    expect(fieldText(chinese.json())).toContain('必须包含 {z}、{x} 和 {y}');

    const saved = await platform.put('/base/sites/settings', {
      tileUrl: ' https://{s}.tiles.example.com:8443/{z}/{x}/{y}.png ',
      attribution: '© Example',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().message).toBe('Map tile settings saved');
    const stored = {
      tileUrl: 'https://{s}.tiles.example.com:8443/{z}/{x}/{y}.png',
      attribution: '© Example',
    };
    expect(await beta.ok('GET', '/base/sites/settings')).toEqual(stored);
    expect(await acme.ok('GET', '/base/sites/settings')).toEqual(stored);

    // The console's pages may now load the tiles; API answers keep their policy.
    for (const url of ['/', '/base/sites']) {
      const page = await t.app.inject({ method: 'GET', url });
      expect(String(page.headers['content-type']), url).toMatch(/^text\/html/);
      expect(String(page.headers['content-security-policy']), url).toMatch(
        /img-src 'self' data: blob: https:\/\/\*\.tiles\.example\.com:8443;/,
      );
    }
    const api = await beta.get('/base/sites/settings');
    expect(String(api.headers['content-security-policy'])).not.toContain('tiles.example.com');

    await platform.ok('PUT', '/base/sites/settings', { tileUrl: null, attribution: 'ignored' });
    expect(await beta.ok('GET', '/base/sites/settings')).toEqual({
      tileUrl: null,
      attribution: null,
    });
    const unset = await t.app.inject({ method: 'GET', url: '/' });
    expect(String(unset.headers['content-security-policy'])).toContain(
      "img-src 'self' data: blob:;",
    );
  });

  it('gives company administrators the map but never the tile setting', async () => {
    const rows = t.app.menuRows.filter((r) => r.perms?.startsWith('base:sites'));
    expect(rows.map((r) => [r.perms, r.parent, r.url ?? null])).toEqual([
      ['base:sites:view', 'base', '/base/sites'],
      ['base:sites:settings', 'base-sites', null],
    ]);
    const { isPlatformOnly } = await import('../../db/seed/menu.js');
    expect(isPlatformOnly('base:sites:settings')).toBe(true);
    expect(isPlatformOnly('base:sites:view')).toBe(false);
  });
});

describe('site-map rules', () => {
  it('picks the colour, worst first', () => {
    expect(siteHealth({ total: 3, online: 3, alarms: 1 })).toBe('alarm');
    expect(siteHealth({ total: 0, online: 0, alarms: 0 })).toBe('empty');
    expect(siteHealth({ total: 3, online: 3, alarms: 0 })).toBe('online');
    expect(siteHealth({ total: 3, online: 1, alarms: 0 })).toBe('partial');
    expect(siteHealth({ total: 3, online: 0, alarms: 0 })).toBe('offline');
  });

  it('turns a template into a policy source', () => {
    expect(tileSource('https://tiles.example.com/{z}/{x}/{y}.png')).toBe(
      'https://tiles.example.com',
    );
    expect(tileSource('HTTP://{s}.Tiles.example.com:81/{z}/{x}/{y}')).toBe(
      'http://*.tiles.example.com:81',
    );
    expect(tileSource('https://a b/{z}')).toBeNull();
    expect(
      allowImages("default-src 'self';img-src 'self' data:;font-src 'self'", 'https://t'),
    ).toBe("default-src 'self';img-src 'self' data: https://t;font-src 'self'");
  });
});
