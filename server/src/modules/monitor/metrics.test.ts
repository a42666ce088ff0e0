import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deviceAddress, upTopic } from '@blrms/contracts';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext } from '../../test/app.js';
import { companyWithToken } from '../../test/company-devices.js';
import { RecordingSink, connectDevice, uniqueSn } from '../../test/mqtt-devices.js';

const TOKEN = 'scrape-token-0123456789';

/** The samples of a Prometheus text exposition: `name{labels}` → value. */
function parseMetrics(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{.*\})?) (\S+)$/.exec(line);
    if (!match) throw new Error(`not a sample line: ${line}`);
    samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

describe('METRICS_TOKEN', () => {
  it('is off when unset or empty, and a weak or malformed token stops the start', () => {
    expect(loadConfig({}).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
    expect(loadConfig({ METRICS_TOKEN: TOKEN }).metricsToken).toBe(TOKEN);
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(
      'METRICS_TOKEN: must be at least 16 characters',
    );
    expect(() => loadConfig({ METRICS_TOKEN: 'has a space in the token' })).toThrow(
      'METRICS_TOKEN: must be printable ASCII without spaces',
    );
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('does not exist, even where the console answers unknown paths with its page', async () => {
    const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-console-'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>console</title>');
    const t = await createTestApp({ webDist });
    try {
      const res = await t.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer anything-at-all-here' },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: '/system/monitor' })).statusCode).toBe(200);
    } finally {
      await t.close();
      fs.rmSync(webDist, { recursive: true, force: true });
    }
  });
});

describe('GET /metrics scraped over HTTP', () => {
  let t: TestContext;
  let base: string;
  let mqttUrl: string;
  const devices: MqttClient[] = [];

  beforeAll(async () => {
    t = await createTestApp({
      env: { METRICS_TOKEN: TOKEN },
      app: { mqtt: { port: 0 }, uplinkSink: new RecordingSink() },
    });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    mqttUrl = `mqtt://127.0.0.1:${t.app.deviceGateway.port}`;
  });
  afterAll(async () => {
    for (const device of devices) await device.endAsync();
    await t.close();
  });

  const scrape = async (authorization = `Bearer ${TOKEN}`) => {
    const res = await fetch(`${base}/metrics`, { headers: { authorization } });
    return { res, text: await res.text() };
  };

  it('refuses a missing or wrong bearer token', async () => {
    for (const authorization of ['', `Bearer ${TOKEN}x`, `Basic ${TOKEN}`, TOKEN]) {
      const { res } = await scrape(authorization);
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('serves the text format, and its values follow what happens', async () => {
    const before = await scrape();
    expect(before.res.status).toBe(200);
    expect(before.res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const first = parseMetrics(before.text);
    expect(first.get('blrms_mqtt_connected_devices')).toBe(0);
    expect(first.get('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(first.get('blrms_websocket_clients')).toBe(0);
    expect(first.has('blrms_campaigns{state="running"}')).toBe(true);
    // The telemetry writer's (its shedding is tested in device-data-shedding.test.ts).
    expect(first.get('blrms_device_data_rows_dropped_total{reason="buffer_full"}')).toBe(0);
    expect(first.get('blrms_device_data_shedding{reason="buffer_full"}')).toBe(0);
    expect(first.get('blrms_device_data_rows_pending_max')).toBe(100_000);
    const online = (samples: Map<string, number>) =>
      samples.get('blrms_devices{status="online"}') ?? 0;

    // A device connects and reports; a signed-in user makes requests.
    const { token } = await companyWithToken(t, 'metrics');
    const sn = uniqueSn('MET');
    const device = await connectDevice(mqttUrl, sn, token);
    devices.push(device);
    await device.publishAsync(
      upTopic(deviceAddress(token.code, sn), 'status'),
      JSON.stringify({ online: true, series: 'R40', fw: '1.0.0' }),
      { qos: 1 },
    );
    await t.login('admin', ADMIN_PASSWORD);
    // Platform-wide counts are cached for 5 s (of the injected clock).
    await expect
      .poll(async () => {
        t.clock.advance(6_000);
        return online(parseMetrics((await scrape()).text));
      })
      .toBe(online(first) + 1);

    const after = parseMetrics((await scrape()).text);
    expect(after.get('blrms_mqtt_connected_devices')).toBe(1);
    expect(after.get('blrms_mqtt_messages_received_total')).toBeGreaterThan(
      first.get('blrms_mqtt_messages_received_total') ?? 0,
    );
    const logins = 'blrms_http_requests_total{method="POST",route="/api/sys/login",status="200"}';
    expect(after.get(logins)).toBe((first.get(logins) ?? 0) + 1);
    expect(after.get('blrms_db_queries_total')).toBeGreaterThan(
      first.get('blrms_db_queries_total') ?? 0,
    );
    const scrapes = 'blrms_http_request_duration_seconds_count{method="GET",route="/metrics"}';
    expect(after.get(scrapes)).toBeGreaterThan(first.get(scrapes) ?? 0);

    // A refused connect is counted.
    await connectDevice(mqttUrl, uniqueSn('MET'), { ...token, key: 'wrong-key' }).catch(() => null);
    const refused = parseMetrics((await scrape()).text);
    expect(refused.get('blrms_mqtt_connections_refused_total')).toBe(
      (after.get('blrms_mqtt_connections_refused_total') ?? 0) + 1,
    );

    await device.endAsync();
    await expect
      .poll(async () => parseMetrics((await scrape()).text).get('blrms_mqtt_connected_devices'))
      .toBe(0);
  });
});
