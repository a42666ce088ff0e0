/**
 * Remote configuration and commands in the console (issue 5): a real MQTT client (mqtt.js) plays
 * an R40 against the embedded broker of the built server, applying the configuration it is sent
 * as a device would (after checking it) and answering commands. The console edits a field on the
 * device's page, the device gets it and the state turns applied without a reload; an invalid value
 * is refused on its field before anything is sent; a password left empty keeps the device's; Ping
 * shows the device's answer; an offline device's refusal is shown; a bulk change of one field
 * starts a configuration campaign. A second R40, whose firmware never reports its configuration,
 * shows its fields as unknown, gets only the field set, and its refusal shows as failed with its
 * reason, in both languages and on a phone.
 */
import type {
  TConfigDownPayload,
  TDevice,
  TDeviceConfigObject,
  TDeviceTokenWithKey,
  TRpcDownPayload,
} from '@blrms/contracts';
import { CONFIG_DEFAULTS, configAfter, configProblem } from '@blrms/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession, type ApiSession } from './support/api.js';
import { launchBrowser } from './support/browser.js';
import { adminStorage, gone, opened, seen, signedInPage } from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

const SN = 'CFG-R40-001';
/** An R40 whose firmware never reports its configuration on its own. */
const LEGACY_SN = 'CFG-R40-002';
/** How long the device takes to apply a configuration: long enough to see it pending first. */
const APPLY_MS = 2000;

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: ApiSession;
let token: TDeviceTokenWithKey;
let device: TDevice;
let client: MqttClient;
/** Channel frames of the console's socket, as `subscribed device:{id}`. */
const channelFrames: string[] = [];
/** PUT /api/device/config requests the console made. */
let configPuts = 0;

/** A simulated R40: what it runs (kept across reconnections) and what it was sent. */
interface SimulatedR40 {
  sn: string;
  running: { version: number; config: TDeviceConfigObject };
  /** What it was sent on `down/config`, in order. */
  received: TConfigDownPayload[];
  /** Reports its configuration after its online status, as the protocol asks. */
  reportsAtBoot: boolean;
  /** Refuses every configuration with this reason, keeping what it runs. */
  refusal: string | null;
  /** How long it takes to answer a configuration. */
  applyMs: number;
}

const r40: SimulatedR40 = {
  sn: SN,
  running: { version: 0, config: CONFIG_DEFAULTS.R40 },
  received: [],
  reportsAtBoot: true,
  refusal: null,
  applyMs: APPLY_MS,
};
const configsReceived = r40.received;
/** What a field router runs: nothing like the factory settings, and unknown to the platform. */
const legacy: SimulatedR40 = {
  sn: LEGACY_SN,
  running: {
    version: 0,
    config: {
      ...CONFIG_DEFAULTS.R40,
      wan: { mode: 'lte', apn: 'plant.apn', apnUser: 'plant', apnPassword: 'apn-secret-7' },
      wifi: { enabled: true, ssid: 'Plant-7', password: 'wifi-secret-7', channel: 6 },
    },
  },
  received: [],
  reportsAtBoot: false,
  refusal: null,
  // Long enough to look at the page while only the field set is known.
  applyMs: 3 * APPLY_MS,
};

/** The whole configuration or the patch a push carried. */
const carried = (down: TConfigDownPayload | undefined) =>
  down && ('config' in down ? down.config : down.patch);

/**
 * Connects a simulated R40: it applies what its schema accepts (after its applyMs), merging a patch
 * into what it runs, refuses as the protocol says (reporting what it keeps), answers commands.
 */
async function connectDevice(sim: SimulatedR40 = r40): Promise<MqttClient> {
  const address = `${token.code}:${sim.sn}`;
  const root = `blrms/v1/${address}`;
  const device = await mqtt.connectAsync(server.mqttUrl ?? '', {
    clientId: address,
    username: address,
    password: token.tokenKey,
    reconnectPeriod: 0,
    will: {
      topic: `${root}/up/status`,
      payload: Buffer.from('{"online":false}'),
      qos: 1,
      retain: true,
    },
  });
  device.on('message', (topic, payload) => {
    const body: unknown = JSON.parse(payload.toString());
    if (topic === `${root}/down/config`) {
      const down = body as TConfigDownPayload;
      sim.received.push(down);
      const config = configAfter(sim.running.config, down);
      const problem = sim.refusal ?? configProblem('R40', config);
      setTimeout(() => {
        if (!problem) sim.running = { version: down.version, config };
        const report = problem
          ? { ...sim.running, result: 'error', error: problem }
          : { ...sim.running, result: 'ok' };
        void device.publishAsync(`${root}/up/config/reported`, JSON.stringify(report), { qos: 1 });
      }, sim.applyMs);
      return;
    }
    const rpc = /\/down\/rpc\/(.+)$/.exec(topic);
    if (rpc) {
      const { method } = body as TRpcDownPayload;
      const reply =
        method === 'ping'
          ? { ok: true, result: 'pong' }
          : method === 'get_config'
            ? { ok: true, result: sim.running }
            : { ok: false, error: `unknown method ${method}` };
      void device.publishAsync(`${root}/up/rpc/${rpc[1]}`, JSON.stringify(reply), { qos: 1 });
    }
  });
  // The protocol's order: subscribe to down/# before saying it is online.
  await device.subscribeAsync(`${root}/down/#`, { qos: 1 });
  await device.publishAsync(`${root}/up/status`, '{"online":true,"series":"R40","fw":"1.0.0"}', {
    qos: 1,
    retain: true,
  });
  if (sim.reportsAtBoot) {
    await device.publishAsync(
      `${root}/up/config/reported`,
      JSON.stringify({ ...sim.running, result: 'ok' }),
      { qos: 1 },
    );
  }
  return device;
}

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({}, { broker: true }), launchBrowser()]);
  const storage = await adminStorage(browser, server);
  session = apiSession(storage, server);
  token = await api<TDeviceTokenWithKey>(server, session, 'POST', '/device/token/add', {
    name: 'Config line',
  });
  device = await api<TDevice>(server, session, 'POST', '/device/device/add', {
    tokenId: token.id,
    sn: SN,
    name: 'Config router',
    series: 'R40',
  });
  client = await connectDevice();
  ({ context, page } = await signedInPage(browser, server, storage));
  page.on('websocket', (socket) => {
    socket.on('framereceived', ({ payload }) => {
      const message = JSON.parse(String(payload)) as { type: string; channel?: string };
      if (message.channel) channelFrames.push(`${message.type} ${message.channel}`);
    });
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/device/config' && request.method() === 'PUT') configPuts++;
  });
});

afterAll(async () => {
  client?.end(true);
  await context?.close();
  await browser?.close();
  await server?.stop();
});

function poll<T>(read: () => Promise<T> | T, timeout = 5000) {
  return expect.poll(read, { timeout, interval: 50 });
}

const configState = () => page.getByTestId('config-state').innerText();
const drawer = () => page.getByTestId('config-edit-drawer');
const field = (path: string) => drawer().getByTestId(`config-field-${path}`);
const input = (path: string) => drawer().getByTestId(`config-input-${path}`);

/** Opens a device's page on a tab, once the console listens to the device's channel. */
async function openTab(tab: 'config' | 'commands', deviceId = device.id): Promise<void> {
  channelFrames.length = 0;
  await page.goto(`/device/detail/${deviceId}`);
  await page.getByTestId(`device-tab-${tab}`).click();
  await poll(() => channelFrames.includes(`subscribed device:${deviceId}`)).toBe(true);
}

describe('device configuration in the console', () => {
  it('edits a field; the device gets it and the state turns applied without a reload', async () => {
    await openTab('config');
    await seen(page.getByTestId('device-config'));
    await poll(() => page.getByTestId('config-reported-version').innerText()).toMatch(/^v0 · /);

    await page.getByTestId('config-edit').click();
    await seen(drawer());
    await input('heartbeatSec').fill('120');
    await input('wan.apn').fill('iot.example');
    await poll(() => page.getByTestId('config-edit-changes').innerText()).toContain('2');
    await page.getByTestId('config-save').click();
    await gone(drawer());

    await poll(() => configsReceived.length).toBe(1);
    expect(configsReceived[0]).toMatchObject({
      version: 1,
      config: { heartbeatSec: 120, wan: { apn: 'iot.example' } },
    });
    // Sent, not yet applied: pending, with the changed fields listed and highlighted.
    await poll(configState).toBe('待生效');
    await seen(page.getByTestId('config-diff-heartbeatSec'));
    expect(await page.getByTestId('config-compare-heartbeatSec').getAttribute('data-differs')).toBe(
      'true',
    );

    // The device's report reaches the page over the socket.
    await poll(configState, APPLY_MS + 3000).toBe('已生效');
    expect(await page.getByTestId('config-diff').count()).toBe(0);
    expect(await page.getByTestId('config-desired-version').innerText()).toMatch(/^v1 · admin · /);
    expect(await page.getByTestId('config-reported-version').innerText()).toMatch(/^v1 · /);

    const version = page.getByTestId('config-history').locator('tr.ant-table-row').first();
    await seen(version.getByText('心跳间隔（秒）'));
    await version.click();
    const modal = page.getByRole('dialog', { name: '配置 v1' });
    await opened(modal);
    await seen(modal.locator('tr[data-changed="true"]').getByText('WAN / APN'));
    await modal.getByRole('button', { name: 'Close' }).click();
  });

  it('shows an invalid value on its field and sends nothing', async () => {
    const puts = configPuts;
    await page.getByTestId('config-edit').click();
    await seen(drawer());
    await input('heartbeatSec').fill('5');
    await seen(field('heartbeatSec').getByText('必须在 10 到 3600 之间'));
    await input('lan.ip').fill('300.1.1.1');
    await page.getByTestId('config-save').click();
    await seen(field('lan.ip').getByText('必须是 IPv4 地址'));
    await page.waitForTimeout(500);
    expect(configPuts).toBe(puts);
    expect(configsReceived).toHaveLength(1);
    await drawer().getByRole('button', { name: '取 消' }).click();
    await gone(drawer());
  });

  it('reloads the editor with a version someone else saved meanwhile, overwriting nothing', async () => {
    await page.getByTestId('config-edit').click();
    await seen(drawer());
    await input('wan.apnUser').fill('alice');
    // Another user saves a change on top of v1 while this editor is open.
    await api(server, session, 'PUT', '/device/config', {
      deviceId: device.id,
      baseVersion: 1,
      config: { ...r40.running.config, heartbeatSec: 90 },
    });
    await page.getByTestId('config-save').click();
    await seen(
      drawer()
        .getByTestId('config-edit-notice')
        .getByText(/当前 v2/),
    );
    expect(await input('heartbeatSec').inputValue()).toBe('90');
    expect(await input('wan.apnUser').inputValue()).toBe('');

    await input('wan.apnUser').fill('alice');
    await page.getByTestId('config-save').click();
    await gone(drawer());
    await poll(() => configsReceived.at(-1)?.version).toBe(3);
    expect(carried(configsReceived.at(-1))).toMatchObject({
      heartbeatSec: 90,
      wan: { apnUser: 'alice' },
    });
    await poll(configState, APPLY_MS + 3000).toBe('已生效');
  });

  it('keeps the device’s password when its field is left empty, and never shows it', async () => {
    const password = (r40.running.config.wifi as { password: string }).password;
    expect(
      await page.getByTestId('config-compare-wifi.password').getByText('••••••••').count(),
    ).toBe(2);
    await page.getByTestId('config-edit').click();
    await seen(drawer());
    expect(await input('wifi.password').inputValue()).toBe('');
    expect(await input('wifi.password').getAttribute('placeholder')).toBe('留空则保留原密码');
    await input('wifi.ssid').fill('Line-2');
    await page.getByTestId('config-save').click();
    await gone(drawer());
    await poll(() => configsReceived.at(-1)?.version).toBe(4);
    expect(carried(configsReceived.at(-1))).toMatchObject({
      wifi: { ssid: 'Line-2', password },
    });
    await poll(configState, APPLY_MS + 3000).toBe('已生效');
    expect(await page.content()).not.toContain(password);
  });
});

describe('device commands in the console', () => {
  it('pings the device and shows its answer', async () => {
    await openTab('commands');
    await page.getByTestId('command-ping').click();
    const row = page.getByTestId('command-row-ping').first();
    await seen(row);
    await poll(() => row.getByTestId('command-state').innerText()).toBe('成功');
    expect(await row.getByTestId('command-outcome').innerText()).toBe('pong');
    await seen(page.getByTestId('command-result').getByText('pong'));
  });

  it('reads the configuration the device runs', async () => {
    await page.getByTestId('command-get-config').click();
    const details = page.getByTestId('command-result').first();
    await poll(() => details.innerText()).toContain('"apnUser": "alice"');
  });

  it("shows the server's refusal when the device is offline", async () => {
    client.end(true);
    await poll(() => page.getByTestId('command-offline-hint').count(), 5000).toBe(1);
    await page.getByTestId('command-ping').click();
    await seen(page.getByTestId('command-refused').getByText('设备离线，命令只能发给在线设备'));
  });
});

describe('bulk configuration', () => {
  it('applies one changed field to the selected devices as a configuration campaign', async () => {
    client = await connectDevice();
    await page.goto('/device/list');
    const row = page
      .getByTestId('device-table')
      .locator('tr.ant-table-row')
      .filter({ hasText: SN });
    await row.locator('.ant-checkbox-input').check();
    await page.getByTestId('device-bulk-config-selected').click();
    const modal = page.getByRole('dialog', { name: '批量配置' });
    await opened(modal);
    await seen(modal.getByTestId('bulk-preview').getByText(/将配置 1 台设备/));
    await modal.getByTestId('config-input-heartbeatSec').fill('300');
    await poll(() => modal.getByTestId('bulk-patch').innerText()).toBe(
      JSON.stringify({ heartbeatSec: 300 }, null, 2),
    );
    await modal.getByRole('button', { name: '开始批量配置' }).click();
    await page.waitForURL(/\/device\/campaign\/[0-9a-f]{32}$/);

    await poll(() => carried(configsReceived.at(-1))?.heartbeatSec, 15_000).toBe(300);
    // Only the patched field changed; the earlier edit stays.
    expect(carried(configsReceived.at(-1))).toMatchObject({ wan: { apn: 'iot.example' } });
  });
});

describe('a device that never reported its configuration', () => {
  let legacyDevice: TDevice;
  let legacyClient: MqttClient;

  beforeAll(async () => {
    legacyDevice = await api<TDevice>(server, session, 'POST', '/device/device/add', {
      tokenId: token.id,
      sn: LEGACY_SN,
      name: 'Field router',
      series: 'R40',
    });
    legacyClient = await connectDevice(legacy);
  });
  afterAll(() => {
    legacyClient?.end(true);
  });

  it('shows its fields as unknown, edits none of them, and sends only the field set', async () => {
    await openTab('config', legacyDevice.id);
    await seen(page.getByTestId('device-config'));
    expect(await page.getByTestId('config-reported-version').innerText()).toBe('设备尚未上报');
    await seen(page.getByTestId('config-empty'));

    await page.getByTestId('config-edit').click();
    await seen(drawer());
    await seen(drawer().getByTestId('config-edit-unknown'));
    // No factory setting poses as the device's value.
    expect(await input('wan.apn').inputValue()).toBe('');
    expect(await input('lan.ip').inputValue()).toBe('');
    await input('heartbeatSec').fill('120');
    await page.getByTestId('config-save').click();
    await gone(drawer());
    await poll(() => legacy.received.length).toBe(1);
    expect(legacy.received[0]).toEqual({ version: 1, patch: { heartbeatSec: 120 } });

    // Before the device answers, only the field set is known; the rest is unknown.
    await seen(page.getByTestId('config-compare-wan.apn').getByTestId('config-unknown'));
    await poll(configState, legacy.applyMs + 3000).toBe('已生效');
    // It answered with all it runs: its own APN, not the factory's.
    await seen(page.getByTestId('config-compare-wan.apn').getByText('plant.apn').first());
    expect(legacy.running.config).toMatchObject({ wan: { apn: 'plant.apn' }, heartbeatSec: 120 });
  });

  it('shows a refusal as failed with the device’s reason, in both languages and on a phone', async () => {
    legacy.refusal = 'wan.apn: not allowed by the carrier';
    await page.getByTestId('config-edit').click();
    await seen(drawer());
    await input('wan.apn').fill('other.apn');
    await page.getByTestId('config-save').click();
    await gone(drawer());
    await poll(configState, legacy.applyMs + 3000).toBe('失败');
    await seen(
      page.getByTestId('config-error').getByText('设备拒绝：wan.apn: not allowed by the carrier'),
    );

    for (const language of ['zh-CN', 'en-US'] as const) {
      const phone = await signedInPage(browser, server, await context.storageState(), {
        locale: language,
        width: 390,
        height: 844,
      });
      try {
        await phone.page.addInitScript((lang) => localStorage.setItem('language', lang), language);
        await phone.page.goto(`/device/detail/${legacyDevice.id}`);
        await phone.page.getByTestId('device-tab-config').click();
        const reason =
          language === 'zh-CN'
            ? '设备拒绝：wan.apn: not allowed by the carrier'
            : 'The device refused it: wan.apn: not allowed by the carrier';
        await seen(phone.page.getByTestId('config-error').getByText(reason));
        await seen(phone.page.getByTestId('config-error').getByText(/v2/));
        // Nothing wider than the phone.
        expect(
          await phone.page.evaluate(() => document.documentElement.scrollWidth),
        ).toBeLessThanOrEqual(390);
        await phone.page.screenshot({
          path: path.join(os.tmpdir(), `blrms-config-failed-${language}-390.png`),
          fullPage: true,
        });
      } finally {
        await phone.context.close();
      }
    }
  });
});
