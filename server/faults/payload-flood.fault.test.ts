import { readFileSync } from 'node:fs';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import { sleep, until } from './support/ports.js';
import { stopAllOwned } from './support/process.js';
import { ServerProcess } from './support/server.js';

afterAll(stopAllOwned);

const FLOOD_MS = Number(process.env.FAULT_OUTAGE_MS ?? 30000);
/** Connections that share one device's address (and key), taking each other over. */
const SHARED = 20;
const BAD_PAYLOADS_PER_MINUTE = 20;

/** Resident memory of a process, in MB. */
function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) / 1024;
}

/**
 * A device that sends nothing but garbage: it connects, publishes a bad payload every few
 * milliseconds until the server closes the connection, and connects again at once, until `until`.
 */
async function garbageLoop(url: string, address: string, key: string, until: number) {
  let connections = 0;
  while (Date.now() < until) {
    const client = mqtt.connect(url, {
      clientId: address,
      username: address,
      password: key,
      reconnectPeriod: 0,
      connectTimeout: 2000,
    });
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const done = () => {
        clearInterval(timer);
        client.end(true);
        resolve();
      };
      client.once('connect', () => {
        connections += 1;
        timer = setInterval(() => {
          if (Date.now() >= until) return done();
          client.publish(`blrms/v1/${address}/up/telemetry`, '{not json');
        }, 5);
      });
      client.once('close', done);
      client.once('error', done);
    });
    await sleep(20);
  }
  return connections;
}

describe('a device flooding the server with bad payloads', () => {
  it('records at most 20 events a minute per device across reconnects, logs a bounded number of lines, keeps answering', async () => {
    const server = await ServerProcess.start({ broker: true });
    try {
      await server.login();
      const token = await server.call<{ code: string; tokenKey: string }>(
        'POST',
        '/device/token/add',
        { name: 'Flood' },
      );
      expect(token.success).toBe(true);
      const { code, tokenKey } = token.result;
      const single = `${code}:FLOOD1`;
      const shared = `${code}:FLOOD2`;
      // Registered by their first connection.
      for (const address of [single, shared]) {
        const client = await mqtt.connectAsync(server.mqttUrl, {
          clientId: address,
          username: address,
          password: tokenKey,
          reconnectPeriod: 0,
        });
        await client.endAsync();
      }
      const deviceId = async (sn: string) => {
        const reply = await server.call<{ records: { id: string }[] }>(
          'GET',
          '/device/device/list',
          { sn, pageSize: 1 },
        );
        return reply.result.records[0]?.id ?? '';
      };
      const ids = { single: await deviceId('FLOOD1'), shared: await deviceId('FLOOD2') };
      expect(ids.single).not.toBe('');
      expect(ids.shared).not.toBe('');
      const events = async (id: string) => {
        const reply = await server.call<{ total: number }>('GET', '/device/event/list', {
          deviceId: id,
          pageSize: 1,
        });
        return reply.result.total;
      };
      const before = { single: await events(ids.single), shared: await events(ids.shared) };

      const logBefore = server.log.split('\n').length;
      const rssBefore = rssMb(server.pid);
      let rssPeak = rssBefore;
      let slowest = 0;
      let unanswered = 0;
      const floodEnds = Date.now() + FLOOD_MS;
      const flood = Promise.all([
        garbageLoop(server.mqttUrl, single, tokenKey, floodEnds),
        ...Array.from({ length: SHARED }, () =>
          garbageLoop(server.mqttUrl, shared, tokenKey, floodEnds),
        ),
      ]);
      while (Date.now() < floodEnds) {
        const reply = await server.call(
          'GET',
          '/device/device/list',
          { pageSize: 1 },
          {
            timeoutMs: 5000,
          },
        );
        if (!reply.success) unanswered += 1;
        slowest = Math.max(slowest, reply.ms);
        rssPeak = Math.max(rssPeak, rssMb(server.pid));
        await sleep(250);
      }
      const connections = await flood;
      // Buffered events are written within a second.
      await sleep(2000);
      const flooded = server.log.split('\n').slice(logBefore - 1, -1);
      const logLines = flooded.length;
      const messages = new Map<string, number>();
      for (const line of flooded) {
        const msg = /"msg":"([^"]*)"/.exec(line)?.[1] ?? line.slice(0, 80);
        messages.set(msg, (messages.get(msg) ?? 0) + 1);
      }
      const recorded = {
        single: (await events(ids.single)) - before.single,
        shared: (await events(ids.shared)) - before.shared,
      };
      console.log(
        `payload flood ${FLOOD_MS} ms: ${connections[0]} connections of one device, ` +
          `${connections.slice(1).reduce((a, b) => a + b, 0)} on a shared address; events ` +
          `recorded ${recorded.single} and ${recorded.shared}; ${logLines} log lines; API ` +
          `slowest ${slowest} ms, ${unanswered} unanswered; RSS ${rssBefore.toFixed(0)} → peak ` +
          `${rssPeak.toFixed(0)} MB; log: ${JSON.stringify(Object.fromEntries(messages))}`,
      );
      const minutes = Math.ceil((FLOOD_MS + 2000) / 60_000);
      // The limit per minute, plus one summary per minute.
      const allowed = (BAD_PAYLOADS_PER_MINUTE + 1) * minutes;
      expect(recorded.single).toBeLessThanOrEqual(allowed);
      expect(recorded.shared).toBeLessThanOrEqual(allowed);
      expect(connections[0]).toBeGreaterThan(1);
      // A line or two per device and minute, not one per message or connection.
      expect(logLines).toBeLessThanOrEqual(10 * minutes);
      expect(unanswered).toBe(0);
      expect(slowest).toBeLessThan(2000);
      expect(rssPeak - rssBefore).toBeLessThan(150);
      await until(
        async () => (await server.call('GET', '/device/device/list', { pageSize: 1 })).success,
        'the API after the flood',
        5000,
      );
    } finally {
      await server.remove();
    }
  }, 180_000);
});
