/**
 * Connection history and removed devices in the console, in both languages: a real MQTT client
 * connects to the built server's broker, disconnects and connects again; the device's
 * Connections tab shows its availability and each connection with how it ended. The device is
 * then deleted while connected: its token's "Removed devices" dialog lists the SN, refuses it
 * at the broker, and "Allow again" lets it register once more. Screenshots of the tab (zh-CN,
 * en-US, 390 px wide) go to the temporary directory for a look.
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TDevice, TDeviceTokenWithKey } from '@blrms/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession, type ApiSession } from './support/api.js';
import { launchBrowser } from './support/browser.js';
import { adminStorage, opened, seen, signedInPage, toast } from './support/console.js';
import type { StorageState } from './support/browser.js';
import { startServer, type RunningServer } from './support/server.js';

const SN = 'CONN-R40-001';
const TOKEN_NAME = 'Connections line';

let server: RunningServer;
let browser: Browser;
let storage: StorageState;
let session: ApiSession;
let token: TDeviceTokenWithKey;
let device: TDevice;
const clients: MqttClient[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({}, { broker: true }), launchBrowser()]);
  storage = await adminStorage(browser, server);
  session = apiSession(storage, server);
  token = await api<TDeviceTokenWithKey>(server, session, 'POST', '/device/token/add', {
    name: TOKEN_NAME,
    autoRegister: true,
  });
  // Two connections: one that ended (the device disconnected) and one open now.
  await (await connect()).endAsync();
  await connect();
  device = await poll(async () => {
    const page = await api<{ records: TDevice[] }>(
      server,
      session,
      'GET',
      `/device/device/list?sn=${SN}`,
    );
    return page.records.find((d) => d.sn === SN && d.status === 'online');
  });
});

afterAll(async () => {
  for (const client of clients) client.end(true);
  for (const context of contexts) await context.close();
  await browser?.close();
  await server?.stop();
});

/** Connects as the device: client id and username are its tag code `{token code}:{SN}`. */
function connect(): Promise<MqttClient> {
  const address = `${token.code}:${SN}`;
  return mqtt
    .connectAsync(server.mqttUrl ?? '', {
      clientId: address,
      username: address,
      password: token.tokenKey,
      reconnectPeriod: 0,
    })
    .then((client) => {
      clients.push(client);
      return client;
    });
}

async function poll<T>(read: () => Promise<T | undefined>, timeout = 5000): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function consolePage(locale: 'zh-CN' | 'en-US', width = 1366): Promise<Page> {
  const { context, page } = await signedInPage(browser, server, storage, { locale, width });
  contexts.push(context);
  await page.evaluate((language) => localStorage.setItem('language', language), locale);
  return page;
}

/**
 * Opens the Connections tab as a user would: by its label, or through the tab bar's "…" menu on
 * a narrow screen, where the labels that do not fit are listed there instead.
 */
async function openConnectionsTab(page: Page, locale: 'zh-CN' | 'en-US'): Promise<void> {
  const label = page.getByTestId('device-tab-connections');
  await label.waitFor({ state: 'attached' });
  const fits = await label.evaluate((el) => {
    const bar = el.closest('.ant-tabs-nav-wrap')?.getBoundingClientRect();
    const box = el.getBoundingClientRect();
    return !bar || (box.left >= bar.left && box.right <= bar.right);
  });
  if (fits) {
    await label.click();
    return;
  }
  await page.getByTestId('device-detail').locator('.ant-tabs-nav-more').click();
  await page.locator('.ant-tabs-dropdown-menu-item').filter({ hasText: TEXT[locale].tab }).click();
}

const TEXT = {
  'zh-CN': {
    tab: '连接记录',
    day: '在线率（最近 24 小时）',
    open: '当前在线',
    ended: '设备主动断开',
    removed: '已移除设备',
    title: `从“${TOKEN_NAME}”移除的设备`,
    allow: '重新允许',
    allowed: `${SN} 已可再次注册`,
  },
  'en-US': {
    tab: 'Connections',
    day: 'Availability, last 24 hours',
    open: 'Connected now',
    ended: 'Disconnected by the device',
    removed: 'Removed devices',
    title: `Devices removed from "${TOKEN_NAME}"`,
    allow: 'Allow again',
    allowed: `${SN} may register again`,
  },
} as const;

describe.each(['zh-CN', 'en-US'] as const)('Connections tab (%s)', (locale) => {
  it('shows availability and each connection with its end', async () => {
    const page = await consolePage(locale);
    await page.goto(`/device/detail/${device.id}`);
    await openConnectionsTab(page, locale);
    // The card is visible with a skeleton until the availability arrives.
    const day = page.getByTestId('device-availability-day');
    await expect.poll(() => day.innerText()).toContain(TEXT[locale].day);
    expect(await day.innerText()).toMatch(/\d+(\.\d)?%/);
    const rows = page.getByTestId('device-connection-table').locator('tr.ant-table-row');
    await expect.poll(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toContain(TEXT[locale].open);
    expect(await rows.nth(0).innerText()).toMatch(/\d/);
    expect(await rows.nth(1).innerText()).toContain(TEXT[locale].ended);
    expect(await rows.nth(1).innerText()).toContain('127.0.0.1');
  });

  it('reads on a phone (390 px)', async () => {
    const page = await consolePage(locale, 390);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/device/detail/${device.id}`);
    await openConnectionsTab(page, locale);
    await seen(page.getByTestId('device-availability-week'));
    await expect
      .poll(() => page.getByTestId('device-connection-table').locator('tr.ant-table-row').count())
      .toBe(2);
    // The page itself does not scroll sideways; the table scrolls within its card.
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({
      path: join(tmpdir(), `blrms-connections-${locale}-390.png`),
      fullPage: true,
    });
  });
});

describe('removed devices on the token page', () => {
  it('lists a deleted device, refuses it, and lets it register again (both languages)', async () => {
    await api(server, session, 'DELETE', `/device/device/delete?id=${device.id}`);
    // The firmware retries: refused with CONNACK 5 (not authorized).
    await expect(connect()).rejects.toMatchObject({ code: 5 });

    for (const locale of ['en-US', 'zh-CN'] as const) {
      const page = await consolePage(locale);
      await page.goto('/device/token');
      const open = page.getByTestId(`token-removed-${token.id}`);
      await seen(open);
      expect(await open.innerText()).toBe(TEXT[locale].removed);
      await open.click();
      const dialog = page.getByRole('dialog', { name: TEXT[locale].title });
      await opened(dialog);
      const row = page.getByTestId('removed-sns-table').locator('tr.ant-table-row');
      await expect.poll(() => row.count()).toBe(1);
      expect(await row.innerText()).toContain(SN);
      if (locale === 'en-US') continue;
      await page.getByTestId(`removed-allow-${SN}`).click();
      await page.getByRole('button', { name: TEXT[locale].allow, exact: true }).last().click();
      await seen(toast(page, TEXT[locale].allowed));
      await expect.poll(() => row.count()).toBe(0);
    }
    await connect();
    const again = await poll(async () => {
      const page = await api<{ records: TDevice[] }>(
        server,
        session,
        'GET',
        `/device/device/list?sn=${SN}`,
      );
      return page.records.find((d) => d.sn === SN && d.status === 'online');
    });
    expect(again.id).not.toBe(device.id);
  });
});
