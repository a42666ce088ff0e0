import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

const serverRoot = resolve(fileURLToPath(import.meta.url), '../..');

/** A port held by "another program" (this test), as Mosquitto holds 1883 on most machines. */
function holdPort(): Promise<{ port: number; server: Server }> {
  return new Promise((ok) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      ok({ port: typeof address === 'object' && address ? address.port : 0, server });
    });
  });
}

/** Runs the server entry from source until it exits; returns its exit code and output. */
function start(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((ok) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'src/main.ts'],
      {
        cwd: serverRoot,
        env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      ok({ code, output });
    });
  });
}

describe('first start on a machine where a port is taken', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((cleanup) => cleanup()));

  it('says which port in one line and creates nothing: no database, no admin, no password shown', async () => {
    const held = await holdPort();
    const dataDir = mkdtempSync(join(tmpdir(), 'blrms-first-start-'));
    cleanups.push(() => held.server.close());
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const free = await holdPort();
    await new Promise<void>((r) => free.server.close(() => r()));

    const { code, output } = await start({
      DATA_DIR: dataDir,
      PORT: String(free.port),
      MQTT_PORT: String(held.port),
    });

    expect(code).toBe(1);
    expect(output).toContain(`MQTT_PORT ${held.port} is in use by another program`);
    expect(output).toContain('MQTT_URL=');
    expect(output).not.toMatch(/Initial admin password/i);
    expect(output).not.toMatch(/\n\s+at /);
    expect(existsSync(join(dataDir, 'blrms.db'))).toBe(false);
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
