/**
 * Live device status in the console (issue 4): a real MQTT client (mqtt.js) connects to the
 * embedded broker of the built server as a device would, and the console shows it without a
 * reload: online in the device list within a second, its telemetry and events on its detail page,
 * offline when its connection dies, and the dashboard's online figure following it.
 */
import type { TDevice, TDeviceTokenWithKey } from '@blrms/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, apiSession, type ApiSession } from './support/api.js';
import { launchBrowser } from './support/browser.js';
import { adminStorage, seen, signedInPage } from './support/console.js';
import { startServer, type RunningServer } from './support/server.js';

const SN = 'LIVE-R40-001';
const NAME = 'Live router';

let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let session: ApiSession;
let token: TDeviceTokenWithKey;
/** The device's address: its client id, username and topic level. */
const address = () => `${token.code}:${SN}`;
let device: TDevice;
const clients: MqttClient[] = [];
/** Channel messages over the console's socket, as `subscribe devices`, `subscribed devices`. */
const channelFrames: string[] = [];
/** Device list requests the console made. */
let listRequests = 0;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({}, { broker: true }), launchBrowser()]);
  const storage = await adminStorage(browser, server);
  session = apiSession(storage, server);
  token = await api<TDeviceTokenWithKey>(server, session, 'POST', '/device/token/add', {
    name: 'Live line',
  });
  device = await api<TDevice>(server, session, 'POST', '/device/device/add', {
    tokenId: token.id,
    sn: SN,
    name: NAME,
    series: 'R40',
  });
  ({ context, page } = await signedInPage(browser, server, storage));
  page.on('websocket', (socket) => {
    const note = ({ payload }: { payload: string | Buffer }) => {
      const message = JSON.parse(String(payload)) as { type: string; channel?: string };
      if (message.channel) channelFrames.push(`${message.type} ${message.channel}`);
    };
    socket.on('framesent', note);
    socket.on('framereceived', note);
  });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/device/device/list') listRequests++;
  });
});

afterAll(async () => {
  for (const client of clients) client.end(true);
  await context?.close();
  await browser?.close();
  await server?.stop();
});

/**
 * Connects as the device (clientId = username = its address `{token code}:{SN}`, password = token
 * key), last will set.
 */
async function connectDevice(): Promise<MqttClient> {
  const statusTopic = `blrms/v1/${address()}/up/status`;
  const client = await mqtt.connectAsync(server.mqttUrl ?? '', {
    clientId: address(),
    username: address(),
    password: token.tokenKey,
    reconnectPeriod: 0,
    will: { topic: statusTopic, payload: Buffer.from('{"online":false}'), qos: 1, retain: true },
  });
  clients.push(client);
  await client.publishAsync(statusTopic, '{"online":true,"series":"R40","fw":"1.0.0"}', {
    qos: 1,
    retain: true,
  });
  return client;
}

function poll<T>(read: () => Promise<T> | T, timeout = 5000) {
  return expect.poll(read, { timeout, interval: 50 });
}

/** Loads a page afresh: a new socket, whose channel messages are watched from the start. */
async function visit(path: string): Promise<void> {
  channelFrames.length = 0;
  await page.goto(path);
}

/**
 * Waits until the server has confirmed the console's subscription to a channel, and the reload
 * the console makes then (changes before it were never sent) is over.
 */
async function subscribed(channel: string): Promise<void> {
  await poll(() => channelFrames.includes(`subscribed ${channel}`)).toBe(true);
  for (let before = -1; before !== listRequests;) {
    before = listRequests;
    await page.waitForTimeout(300);
  }
}

function deviceRow(): Locator {
  return page
    .getByTestId('device-table')
    .locator('tr.ant-table-row')
    .filter({ has: page.getByTestId(`device-link-${SN}`) });
}

describe('live device status', () => {
  let client: MqttClient;

  it('shows a device online in the list within a second of connecting, without a reload', async () => {
    await visit('/device/list');
    const status = deviceRow().getByTestId('device-status');
    await seen(status);
    expect(await status.innerText()).toBe('离线');
    await subscribed('devices');
    const loads = listRequests;

    client = await connectDevice();
    await status.getByText('在线', { exact: true }).waitFor({ timeout: 1500 });
    await seen(deviceRow().getByText('1.0.0', { exact: true }));
    expect(listRequests).toBe(loads);
  });

  it("shows the device's telemetry and events on its detail page as they arrive", async () => {
    await deviceRow().getByTestId(`device-link-${SN}`).click();
    await seen(page.getByTestId('device-detail'));
    await page.getByTestId('device-tab-monitoring').click();
    await seen(page.getByTestId('telemetry-latest-empty'));
    await subscribed(`device:${device.id}`);

    await client.publishAsync(
      `blrms/v1/${address()}/up/telemetry`,
      '{"values":{"signal":-71,"di1":1}}',
      {
        qos: 1,
      },
    );
    const signal = page.getByTestId('telemetry-signal');
    await seen(signal);
    expect(await signal.locator('.ant-statistic-content').innerText()).toMatch(/^-71\s*dBm$/);
    expect(
      await page.getByTestId('telemetry-di1').locator('.ant-statistic-content').innerText(),
    ).toBe('1');
    await seen(page.getByTestId('telemetry-chart'));

    await client.publishAsync(
      `blrms/v1/${address()}/up/event`,
      '{"level":"alarm","code":"DOOR_OPEN","message":"Cabinet door opened"}',
      { qos: 1 },
    );
    const event = page
      .getByTestId('device-event-table')
      .locator('tr.ant-table-row')
      .filter({ hasText: 'DOOR_OPEN' });
    await seen(event);
    expect(await event.getByTestId('event-level').innerText()).toBe('告警');
    await seen(event.getByText('Cabinet door opened'));
  });

  it('shows the device offline on its detail page when its connection dies', async () => {
    const status = page.getByTestId('device-detail-status');
    expect(await status.innerText()).toBe('在线');
    client.stream.destroy();
    await status.getByText('离线', { exact: true }).waitFor({ timeout: 5000 });
    await poll(() => page.getByTestId('device-disconnect-reason').innerText()).not.toBe('-');
  });

  it("follows the device's status in the dashboard's online figure", async () => {
    await visit('/dashboard/analysis');
    const online = page.getByTestId('device-stat-online').locator('.ant-statistic-content');
    await poll(() => online.innerText()).toBe('0');
    await subscribed('devices');
    client = await connectDevice();
    await poll(() => online.innerText(), 3000).toBe('1');
  });
});
