/**
 * 站点地图 (issue 20): two sites of the admin's company, one with every device online and one with
 * an open alarm, are drawn green and red on the shipped basemap (no tile server), fitted into
 * view; a marker's popup counts the site's devices and leads to the device list filtered by the
 * site. Read in Chinese, in English and at phone width.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { StorageState } from './support/browser.js';
import { adminStorage, seen, settledPath } from './support/console.js';
import { useConsoleHarness } from './support/harness.js';
import { pageIn } from './support/language.js';

const harness = useConsoleHarness();
const SHOTS = '/tmp/agents/shots';

const id = () => randomBytes(16).toString('hex');

interface Sites {
  shanghai: string;
  shenzhen: string;
  shenzhenSn: string;
  shanghaiSn: string;
}

/**
 * The sites, their devices and an alarm, written into the database as the base-data module, the
 * MQTT gateway (online status) and the alarm engine would: the map only reads them.
 */
function seedSites(): Sites {
  const db = new Database(join(harness.server.dataDir, 'blrms.db'));
  try {
    const admin = db
      .prepare("select id, company_id from sys_user where username = 'admin'")
      .get() as { id: string; company_id: string };
    const now = Date.now();
    const tokenId = id();
    db.prepare(
      `insert into device_token (id, company_id, owner_id, code, name, remark, token_key, key_hash,
         auto_register, enabled, create_time)
       values (?, ?, ?, ?, 'map', null, ?, ?, 0, 1, ?)`,
    ).run(tokenId, admin.company_id, admin.id, 'MAPE2E01', id(), id() + id(), now);
    const location = (kind: string, name: string, parent: string | null, at?: [number, number]) => {
      const locationId = id();
      db.prepare(
        `insert into base_location (id, company_id, parent_id, kind, name, latitude, longitude,
           sort_no, create_time)
         values (?, ?, ?, ?, ?, ?, ?, 0, ?)`,
      ).run(
        locationId,
        admin.company_id,
        parent,
        kind,
        name,
        at?.[0] ?? null,
        at?.[1] ?? null,
        now,
      );
      return locationId;
    };
    const device = (sn: string, locationId: string, status: string) => {
      const deviceId = id();
      db.prepare(
        `insert into device (id, company_id, token_id, sn, name, series, owner_id, enabled, status,
           create_time, location_id)
         values (?, ?, ?, ?, ?, 'R40', ?, 1, ?, ?, ?)`,
      ).run(deviceId, admin.company_id, tokenId, sn, sn, admin.id, status, now, locationId);
      return deviceId;
    };
    const east = location('region', '华东', null);
    const south = location('region', '华南', null);
    const shanghai = location('site', '上海站<b>', east, [31.23, 121.47]);
    const shenzhen = location('site', '深圳站', south, [22.54, 114.06]);
    const cabinet = location('cabinet', '1号柜', shenzhen);
    device('MAP-SH-1', shanghai, 'online');
    device('MAP-SH-2', shanghai, 'online');
    device('MAP-SZ-1', cabinet, 'online');
    const alarmed = device('MAP-SZ-2', shenzhen, 'offline');
    const alarmId = id();
    db.prepare(
      `insert into alarm (id, company_id, rule_id, rule_name, condition_type, severity, state,
         device_id, sn, device_name, message_zh, message_en, count, first_time, last_time,
         open_key, notified)
       values (?, ?, null, '离线', 'offline', 'major', 'active', ?, 'MAP-SZ-2', 'MAP-SZ-2',
         '设备离线', 'Device offline', 1, ?, ?, ?, 0)`,
    ).run(alarmId, admin.company_id, alarmed, now, now, `${alarmId}:${alarmed}`);
    return { shanghai, shenzhen, shenzhenSn: 'MAP-SZ-2', shanghaiSn: 'MAP-SH-1' };
  } finally {
    db.close();
  }
}

function marker(page: Page, siteId: string): Locator {
  return page.locator(`path.site-marker-${siteId}`);
}

/** Whether the marker is drawn inside the map's visible box. */
async function inView(page: Page, siteId: string): Promise<boolean> {
  const map = await page.getByTestId('site-map').boundingBox();
  const dot = await marker(page, siteId).boundingBox();
  if (!map || !dot) return false;
  return (
    dot.x >= map.x &&
    dot.y >= map.y &&
    dot.x + dot.width <= map.x + map.width &&
    dot.y + dot.height <= map.y + map.height
  );
}

describe('sites on a map', () => {
  let storage: StorageState;
  let sites: Sites;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    storage = await adminStorage(harness.browser, harness.server);
    sites = seedSites();
  });

  it('colours the sites by health and leads from a popup to the site’s devices', async () => {
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        'zh-CN',
        { width: 1366, height: 860, storageState: storage },
        '/base/sites',
      ),
    );
    await seen(page.getByTestId('site-map-summary').getByText('2 个站点 · 4 台设备'));
    await seen(marker(page, sites.shanghai));
    await expect
      .poll(() => marker(page, sites.shanghai).getAttribute('class'))
      .toContain('site-marker--online');
    expect(await marker(page, sites.shenzhen).getAttribute('class')).toContain(
      'site-marker--alarm',
    );
    // Green and red, as the legend says.
    expect(await marker(page, sites.shanghai).getAttribute('fill')).toBe('#52c41a');
    expect(await marker(page, sites.shenzhen).getAttribute('fill')).toBe('#f5222d');
    await seen(page.getByTestId('site-map-legend').getByText('有未清除告警'));
    // The map fits both sites; the outline is drawn under them.
    await expect.poll(() => inView(page, sites.shanghai)).toBe(true);
    expect(await inView(page, sites.shenzhen)).toBe(true);
    await seen(page.locator('.blrms-map canvas').first());
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}/site-map-zh-CN.png` });

    await marker(page, sites.shenzhen).click();
    const popup = page.getByTestId('site-popup');
    await seen(popup.getByText('深圳站', { exact: true }));
    await seen(popup.getByText('华南/深圳站'));
    expect(await popup.getByTestId('site-popup-total').textContent()).toBe('2');
    expect(await popup.getByTestId('site-popup-online').textContent()).toBe('1');
    expect(await popup.getByTestId('site-popup-offline').textContent()).toBe('1');
    expect(await popup.getByTestId('site-popup-alarms').textContent()).toBe('1');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/site-map-popup-zh-CN.png` });

    await popup.getByTestId('site-popup-devices').click();
    const path = await settledPath(page, `/device/list?locationId=${sites.shenzhen}`);
    expect(path).toMatch(new RegExp(`^/device/list\\?(.*&)?locationId=${sites.shenzhen}`));
    await seen(page.getByRole('cell', { name: sites.shenzhenSn }).first());
    await expect.poll(() => page.getByRole('cell', { name: sites.shanghaiSn }).count()).toBe(0);
  }, 120_000);

  it('filters by series and reads in English', async () => {
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        'en-US',
        { width: 1280, height: 800, storageState: storage },
        '/base/sites',
      ),
    );
    await seen(page.getByTestId('site-map-summary').getByText('2 sites · 4 devices'));
    // A name is text, never markup.
    await marker(page, sites.shanghai).hover();
    await seen(page.locator('.leaflet-tooltip').getByText('上海站<b>'));
    await seen(page.getByTestId('site-map-legend').getByText('Some offline'));
    await marker(page, sites.shanghai).click();
    await seen(page.getByTestId('site-popup').getByText('View devices'));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/site-map-en-US.png` });

    await page.goto('/base/sites?series=S27X');
    await seen(page.getByTestId('site-map-empty'));
    await seen(page.getByText('0 sites · 0 devices'));
    expect(await marker(page, sites.shanghai).count()).toBe(0);
  }, 120_000);

  it('fits a phone screen', async () => {
    const page = harness.track(
      await pageIn(
        harness.browser,
        harness.server,
        'zh-CN',
        { width: 390, height: 844, storageState: storage },
        '/base/sites',
      ),
    );
    await seen(marker(page, sites.shenzhen));
    await expect.poll(() => inView(page, sites.shanghai)).toBe(true);
    expect(await inView(page, sites.shenzhen)).toBe(true);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await marker(page, sites.shenzhen).click();
    await seen(page.getByTestId('site-popup-devices'));
    await page.waitForTimeout(300);
    await page.screenshot({ path: `${SHOTS}/site-map-390.png` });
  }, 120_000);
});
