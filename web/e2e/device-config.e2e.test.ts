/**
 * Remote configuration and commands in the console (issue 5): a real MQTT client (mqtt.js) plays
 * an R40 against the embedded broker of the built server, applying the configuration it is sent
 * as a device would (after checking it) and answering commands. The console edits a field on the
 * device's page, the device gets it and the state turns applied without a reload; an invalid value
 * is refused on its field before anything is sent; Ping shows the device's answer; an offline
 * device's refusal is shown; a bulk change of one field starts a configuration campaign.
 */
import type {
  TConfigDownPayload,
  TDevice,
  TDeviceConfigObject,
  TDeviceTokenWithKey,
  TRpcDownPayload,
} from '@blrms/contracts';
import { CONFIG_DEFAULTS, configProblem } from '@blrms/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession, type ApiSession } from './support/api.js';
import { launchBrowser } from './support/browser.js';
import { adminStorage, gone, opened, seen, signedInPage } from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

const SN = 'CFG-R40-001';
/** How long the device takes to apply a configuration: long enough to see it pending first. */
const APPLY_MS = 2000;

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: ApiSession;
let token: TDeviceTokenWithKey;
/** The device's address: its client id, username and topic level. */
const address = () => `${token.code}:${SN}`;
let device: TDevice;
let client: MqttClient;
/** What the device was sent on `down/config`, in order. */
const configsReceived: TConfigDownPayload[] = [];
/** Channel frames of the console's socket, as `subscribed device:{id}`. */
const channelFrames: string[] = [];
/** PUT /api/device/config requests the console made. */
let configPuts = 0;

/** The configuration the simulated R40 runs; it keeps it across reconnections. */
let running: { version: number; config: TDeviceConfigObject } = {
  version: 0,
  config: CONFIG_DEFAULTS.R40,
};

/** The simulated R40: applies what its schema accepts (after APPLY_MS), answers commands. */
async function connectDevice(): Promise<MqttClient> {
  const root = `blrms/v1/${address()}`;
  const device = await mqtt.connectAsync(server.mqttUrl ?? '', {
    clientId: address(),
    username: address(),
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
      configsReceived.push(down);
      const problem = configProblem('R40', down.config);
      setTimeout(() => {
        if (!problem) running = { version: down.version, config: down.config };
        const report = problem
          ? { ...running, result: 'error', error: problem }
          : { ...running, result: 'ok' };
        void device.publishAsync(`${root}/up/config/reported`, JSON.stringify(report), { qos: 1 });
      }, APPLY_MS);
      return;
    }
    const rpc = /\/down\/rpc\/(.+)$/.exec(topic);
    if (rpc) {
      const { method } = body as TRpcDownPayload;
      const reply =
        method === 'ping'
          ? { ok: true, result: 'pong' }
          : method === 'get_config'
            ? { ok: true, result: running }
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
  await device.publishAsync(
    `${root}/up/config/reported`,
    JSON.stringify({ ...running, result: 'ok' }),
    { qos: 1 },
  );
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

/** Opens the device's page on a tab, once the console listens to the device's channel. */
async function openTab(tab: 'config' | 'commands'): Promise<void> {
  channelFrames.length = 0;
  await page.goto(`/device/detail/${device.id}`);
  await page.getByTestId(`device-tab-${tab}`).click();
  await poll(() => channelFrames.includes(`subscribed device:${device.id}`)).toBe(true);
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
      config: { ...running.config, heartbeatSec: 90 },
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
    expect(configsReceived.at(-1)?.config).toMatchObject({
      heartbeatSec: 90,
      wan: { apnUser: 'alice' },
    });
    await poll(configState, APPLY_MS + 3000).toBe('已生效');
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

    await poll(() => configsReceived.at(-1)?.config.heartbeatSec, 15_000).toBe(300);
    // Only the patched field changed; the earlier edit stays.
    expect(configsReceived.at(-1)?.config).toMatchObject({ wan: { apn: 'iot.example' } });
  });
});
