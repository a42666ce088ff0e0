import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = resolve(fileURLToPath(import.meta.url), '../../../..');

export interface RunningServer {
  url: string;
  dataDir: string;
  adminPassword: string;
  /** `mqtt://127.0.0.1:{port}` of the embedded broker; null when it is off (the default). */
  mqttUrl: string | null;
  /** The server process, for benchmarks that read its memory. */
  pid: number;
  /** What the server has printed so far (its log, at LOG_LEVEL warn unless set). */
  output(): string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? ok(address.port) : fail()));
    });
  });
}

/** Whether something accepts TCP connections on the port. */
export function accepts(port: number): Promise<boolean> {
  return new Promise((ok) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      ok(true);
    });
    socket.once('error', () => ok(false));
  });
}

export interface StartOptions {
  /**
   * Runs the embedded MQTT broker on a free port of its own (tests that connect devices). Off by
   * default (`MQTT_PORT=0`): other tests need no broker, and the machine's Mosquitto holds 1883.
   */
  broker?: boolean;
}

/** The flags `npm start` gives node (package.json; docs/operations.md says why). */
const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

/**
 * Starts the built server (`server/dist/main.js`, serving `web/dist`) as `npm start` would, on a
 * free port with its own data directory, so browser tests and benchmarks exercise the real process.
 */
export async function startServer(
  env: Record<string, string> = {},
  options: StartOptions = {},
): Promise<RunningServer> {
  const entry = join(repoRoot, 'server/dist/main.js');
  if (!existsSync(entry) || !existsSync(join(repoRoot, 'web/dist/index.html'))) {
    throw new Error('Build first: npm run build');
  }
  const port = await freePort();
  const mqttPort =
    env.MQTT_PORT !== undefined ? Number(env.MQTT_PORT) : options.broker ? await freePort() : 0;
  const dataDir = env.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'blrms-'));
  const adminPassword = env.ADMIN_PASSWORD ?? 'Blrms-e2e-2026';
  const child: ChildProcess = spawn(process.execPath, [...SERVER_NODE_FLAGS, entry], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      MQTT_PORT: String(mqttPort),
      CAPTCHA: 'off',
      LOG_LEVEL: 'warn',
      ADMIN_PASSWORD: adminPassword,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok && (mqttPort === 0 || (await accepts(mqttPort)))) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become healthy in 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    dataDir,
    adminPassword,
    mqttUrl: mqttPort === 0 ? null : `mqtt://127.0.0.1:${mqttPort}`,
    pid: child.pid ?? 0,
    output: () => output,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
