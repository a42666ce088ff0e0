import http from 'node:http';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { WS_TOKEN_PROTOCOL } from '@blrms/contracts';
import { sleep, until } from './support/ports.js';
import { stopAllOwned } from './support/process.js';
import { ServerProcess } from './support/server.js';

afterAll(stopAllOwned);

/** Docker's default stop timeout; Kubernetes gives 30 s. */
const EXIT_WITHIN_MS = 10_000;
/** RFC 6455 "service restart": the console reconnects after any close but 4401/4403. */
const WS_CLOSE_SERVICE_RESTART = 1012;

interface Device {
  id: string;
  sn: string;
  client: MqttClient;
  closedAt: number | null;
}

/** An HTTP request whose body is still on its way: in flight from the server's point of view. */
function slowLogin(server: ServerProcess) {
  const body = Buffer.from(
    JSON.stringify({ username: 'admin', password: server.adminPassword }),
    'utf8',
  );
  const request = http.request(`${server.url}/api/sys/login`, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', 'content-length': body.length },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    request.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      res.on('error', reject);
    });
    request.on('error', reject);
  });
  request.write(body.subarray(0, 10));
  return {
    answered,
    finish: () => request.end(body.subarray(10)),
  };
}

/** A finished request whose connection the agent keeps open: an idle keep-alive socket. */
async function idleKeepAlive(server: ServerProcess) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let closedAt: number | null = null;
  await new Promise<void>((resolve, reject) => {
    http
      .get(`${server.url}/api/health`, { agent }, (res) => {
        res.socket.once('close', () => (closedAt = Date.now()));
        res.resume();
        res.on('end', () => resolve());
      })
      .on('error', reject);
  });
  return { agent, closedAt: () => closedAt };
}

describe('SIGTERM', () => {
  it('stops accepting, answers what is in flight, closes sockets, hands devices over, exits within 10 s', async () => {
    const server = await ServerProcess.start({ broker: true });
    const devices: Device[] = [];
    try {
      await server.login();
      const login = await server.call<{ token: string; userInfo: { id: string } }>(
        'POST',
        '/sys/login',
        { username: 'admin', password: server.adminPassword },
      );
      const token = await server.call<{ id: string; code: string; tokenKey: string }>(
        'POST',
        '/device/token/add',
        { name: 'Shutdown', autoRegister: false },
      );
      expect(token.success, token.message).toBe(true);

      for (let i = 0; i < 3; i += 1) {
        const sn = `STOP-${i}`;
        const added = await server.call<{ id: string }>('POST', '/device/device/add', {
          tokenId: token.result.id,
          sn,
          name: sn,
          series: 'R40',
        });
        expect(added.success, added.message).toBe(true);
        const address = `${token.result.code}:${sn}`;
        const client = mqtt.connect(server.mqttUrl, {
          clientId: address,
          username: address,
          password: token.result.tokenKey,
          reconnectPeriod: 0,
        });
        const device: Device = { id: added.result.id, sn, client, closedAt: null };
        client.on('close', () => (device.closedAt ??= Date.now()));
        client.on('error', () => undefined);
        await new Promise<void>((resolve, reject) => {
          client.once('connect', () => resolve());
          client.once('error', reject);
        });
        devices.push(device);
      }
      for (const device of devices) {
        await until(
          async () =>
            (
              await server.call<{ status: string }>('GET', '/device/device/queryById', {
                id: device.id,
              })
            ).result.status === 'online',
          `${device.sn} online`,
        );
      }

      const consoleSocket = new WebSocket(
        `ws://127.0.0.1:${server.port}/api/websocket/${login.result.userInfo.id}`,
        [WS_TOKEN_PROTOCOL, login.result.token],
      );
      let consoleClose: { code: number; at: number } | null = null;
      consoleSocket.on('close', (code) => (consoleClose = { code, at: Date.now() }));
      consoleSocket.on('error', () => undefined);
      await new Promise<void>((resolve, reject) => {
        consoleSocket.once('open', () => resolve());
        consoleSocket.once('error', reject);
      });

      const idle = await idleKeepAlive(server);
      const inFlight = slowLogin(server);
      // The server has the request's head before the signal.
      await sleep(300);

      const signalled = Date.now();
      const exited = server.terminate(20_000);
      await sleep(1000);
      inFlight.finish();
      const answer = await inFlight.answered;
      const exitMs = await exited;

      expect(exitMs).toBeLessThanOrEqual(EXIT_WITHIN_MS);
      expect(server.exitCode).toBe(0);
      expect(answer.status, answer.body).toBe(200);
      expect(idle.closedAt(), 'idle keep-alive socket closed').not.toBeNull();
      expect(idle.closedAt()! - signalled).toBeLessThan(1000);
      expect(consoleClose, 'console socket closed').not.toBeNull();
      expect(consoleClose!.code).toBe(WS_CLOSE_SERVICE_RESTART);
      for (const device of devices) {
        expect(device.closedAt, `${device.sn} disconnected`).not.toBeNull();
        expect(device.closedAt! - signalled, device.sn).toBeLessThan(EXIT_WITHIN_MS);
      }
      idle.agent.destroy();

      // Started again on the same ports: the MQTT port was released.
      await server.boot();
      await server.login();
      for (const device of devices) {
        const shown = await server.call<{ status: string; disconnectReason: string | null }>(
          'GET',
          '/device/device/queryById',
          { id: device.id },
        );
        expect(
          { status: shown.result.status, reason: shown.result.disconnectReason },
          device.sn,
        ).toEqual({ status: 'offline', reason: 'server-shutdown' });
      }
      console.info(`SIGTERM to exit: ${exitMs} ms`);
    } finally {
      for (const device of devices) device.client.end(true);
      await server.remove();
    }
  });

  it('exits within 10 s, non-zero and saying what was open, when a request never finishes', async () => {
    const server = await ServerProcess.start({ broker: true });
    try {
      const stalled = slowLogin(server);
      stalled.answered.catch(() => undefined);
      await sleep(300);
      const exitMs = await server.terminate(20_000);
      expect(exitMs).toBeLessThanOrEqual(EXIT_WITHIN_MS);
      expect(server.exitCode).not.toBe(0);
      expect(server.log).toMatch(/shutdown deadline/);
    } finally {
      await server.remove();
    }
  });

  it('exits at once on a second signal', async () => {
    const server = await ServerProcess.start({ broker: true });
    try {
      const stalled = slowLogin(server);
      stalled.answered.catch(() => undefined);
      await sleep(300);
      process.kill(server.pid, 'SIGTERM');
      await sleep(300);
      const second = Date.now();
      process.kill(server.pid, 'SIGINT');
      await until(() => !server.running, 'the server to exit', 5000, 20);
      expect(Date.now() - second).toBeLessThan(1000);
      expect(server.exitCode).not.toBe(0);
    } finally {
      await server.remove();
    }
  });
});
