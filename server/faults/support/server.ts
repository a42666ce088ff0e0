import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { accepts, freePort, sleep } from './ports.js';
import { OwnedProcess } from './process.js';

const repoRoot = resolve(fileURLToPath(import.meta.url), '../../../..');
const ADMIN_PASSWORD = 'Blrms-faults-2026';

export interface Reply<T = unknown> {
  status: number;
  success: boolean;
  message: string;
  result: T;
  /** Milliseconds from sending the request to the end of the response (or the failure). */
  ms: number;
}

export interface ServerOptions {
  /** Extra environment (DATABASE_URL, REDIS_URL, MQTT_URL, ...). */
  env?: Record<string, string>;
  /** Run the embedded MQTT broker on a free port (kept across restarts). */
  broker?: boolean;
  /** Share a data directory with another node or a previous run. */
  dataDir?: string;
}

/**
 * The built server (`server/dist/main.js`) as a process of the suite's own: a test may `kill -9`
 * it, send SIGTERM and time the exit, or start it again on the same ports and data.
 */
export class ServerProcess {
  private process: OwnedProcess | null = null;
  private token: string | null = null;

  private constructor(
    readonly port: number,
    readonly mqttPort: number,
    readonly dataDir: string,
    private readonly ownsDataDir: boolean,
    private readonly env: Record<string, string>,
  ) {}

  static async start(options: ServerOptions = {}): Promise<ServerProcess> {
    const entry = join(repoRoot, 'server/dist/main.js');
    if (!existsSync(entry)) throw new Error('Build first: npm run build');
    const port = await freePort();
    const mqttPort = options.broker ? await freePort() : 0;
    const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'blrms-fault-'));
    const server = new ServerProcess(port, mqttPort, dataDir, !options.dataDir, options.env ?? {});
    await server.boot();
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get mqttUrl(): string {
    return `mqtt://127.0.0.1:${this.mqttPort}`;
  }

  get running(): boolean {
    return this.process?.running ?? false;
  }

  /** The exit code of the last run; null while it runs or when a signal ended it. */
  get exitCode(): number | null {
    return this.process?.child.exitCode ?? null;
  }

  get pid(): number {
    return this.process?.pid ?? 0;
  }

  /** What the process printed (the last 200 kB). */
  get log(): string {
    return this.process?.log ?? '';
  }

  get adminPassword(): string {
    return ADMIN_PASSWORD;
  }

  /** Starts the process (again) and waits until it is healthy. */
  async boot(timeoutMs = 30_000): Promise<void> {
    const started = new OwnedProcess(process.execPath, [join(repoRoot, 'server/dist/main.js')], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DATA_DIR: this.dataDir,
        MQTT_PORT: String(this.mqttPort),
        CAPTCHA: 'off',
        LOG_LEVEL: 'warn',
        ADMIN_PASSWORD,
        ...this.env,
      },
    });
    this.process = started;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (!started.running) throw new Error(`server exited:\n${started.log}`);
      try {
        const res = await fetch(`${this.url}/api/health`);
        if (res.ok && (this.mqttPort === 0 || (await accepts(this.mqttPort)))) return;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) {
        await started.kill();
        throw new Error(`server did not become healthy in ${timeoutMs} ms:\n${started.log}`);
      }
      await sleep(100);
    }
  }

  /** `kill -9`. */
  async kill(): Promise<void> {
    await this.process?.kill();
  }

  /** Sends SIGTERM and returns how long the process took to exit (SIGKILL after `graceMs`). */
  async terminate(graceMs = 30_000): Promise<number> {
    const started = Date.now();
    await this.process?.stop('SIGTERM', graceMs);
    return Date.now() - started;
  }

  /** Ends the process and removes its data directory unless it was given one. */
  async remove(): Promise<void> {
    await this.process?.kill();
    if (this.ownsDataDir) rmSync(this.dataDir, { recursive: true, force: true });
  }

  /** Logs in as `admin` (captcha off) and keeps the token for `call`. */
  async login(): Promise<string> {
    const reply = await this.call<{ token: string }>('POST', '/sys/login', {
      username: 'admin',
      password: ADMIN_PASSWORD,
    });
    if (!reply.success) throw new Error(`login failed: ${reply.status} ${reply.message}`);
    this.token = reply.result.token;
    return this.token;
  }

  /**
   * Calls `/api{path}` as the logged-in admin and never throws for an HTTP or network failure:
   * a failure is a reply with status 0 (no answer) and the time it took, which is what the
   * suite asserts on. `timeoutMs` bounds the wait.
   */
  async call<T = unknown>(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    payload?: object,
    options: { timeoutMs?: number; lang?: string; token?: string } = {},
  ): Promise<Reply<T>> {
    const url = new URL(`/api${path}`, this.url);
    const headers: Record<string, string> = {};
    const token = options.token ?? this.token;
    if (token) headers['X-Access-Token'] = token;
    if (options.lang) headers['Accept-Language'] = options.lang;
    let body: string | undefined;
    if (method === 'GET' || method === 'DELETE') {
      for (const [k, v] of Object.entries(payload ?? {})) url.searchParams.set(k, String(v));
    } else {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(payload ?? {});
    }
    const started = Date.now();
    try {
      const res = await fetch(url, {
        method,
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
      });
      const text = await res.text();
      const envelope = (text ? JSON.parse(text) : {}) as {
        success?: boolean;
        message?: string;
        result?: T;
      };
      return {
        status: res.status,
        success: envelope.success ?? false,
        message: envelope.message ?? '',
        result: envelope.result as T,
        ms: Date.now() - started,
      };
    } catch (err) {
      return {
        status: 0,
        success: false,
        message: err instanceof Error ? err.message : String(err),
        result: undefined as T,
        ms: Date.now() - started,
      };
    }
  }
}
