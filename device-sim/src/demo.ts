import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORM_COMPANY_ID } from '@blrms/server/dist/db/seed/seed.js';
import { SessionService } from '@blrms/server/dist/platform/auth/sessions.js';
import { MemoryBus } from '@blrms/server/dist/platform/bus/memory-bus.js';
import { systemClock } from '@blrms/server/dist/platform/clock.js';
import { createDatabase, databaseTarget } from '@blrms/server/dist/platform/db/database.js';
import { stableId } from '@blrms/server/dist/platform/db/ids.js';
import { Fleet } from './fleet.js';
import { fleetLogHooks } from './fleet-report.js';

/**
 * `npm run demo`: the platform as `npm start` runs it (the built `server/dist/main.js`, here with
 * its data in `data/demo`), a token key named "Demo fleet", and 50 simulated devices of the three
 * series connected with it, so that a new user sees a live fleet at once. Ctrl-C stops both.
 *
 * The token is created through the server's own API with a short-lived admin session that this
 * script opens with the server's SessionService on the same database (and ends with a logout):
 * the captcha stays on for the person who signs in to the console, no password has to be known
 * to the script, and the token gets the same checks and operation log as one made in the console.
 */

const repoRoot = path.resolve(fileURLToPath(import.meta.url), '../../..');
const env = process.env;
const dataDir = path.resolve(repoRoot, env.DATA_DIR ?? 'data/demo');
const httpPort = Number(env.PORT ?? 8080);
const mqttPort = Number(env.MQTT_PORT ?? 1883);
const brokerUrl = env.MQTT_URL ?? `mqtt://127.0.0.1:${mqttPort}`;
const TOKEN_NAME = 'Demo fleet';
const DEVICES = 50;

const say = (line: string) => process.stdout.write(`${line}\n`);
function fail(message: string): never {
  process.stderr.write(`demo: ${message}\n`);
  process.exit(1);
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });
}

/**
 * The demo's admin password: ADMIN_PASSWORD when given; otherwise one generated for a new demo
 * database and kept beside it, so that every later start can print it again.
 */
function adminPassword(): { password: string | undefined; known: boolean } {
  if (env.ADMIN_PASSWORD) return { password: env.ADMIN_PASSWORD, known: true };
  const file = path.join(dataDir, 'demo-admin-password.txt');
  if (existsSync(file)) return { password: readFileSync(file, 'utf8').trim(), known: true };
  if (env.DATABASE_URL || existsSync(path.join(dataDir, 'blrms.db')))
    return { password: undefined, known: false };
  const password = `Demo-${randomBytes(9).toString('base64url')}`;
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${password}\n`, { mode: 0o600 });
  return { password, known: true };
}

async function waitForHealth(url: string, exited: () => boolean): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited()) fail('the server stopped while starting (see its output above)');
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) fail('the server did not answer /api/health within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function call<T>(url: string, token: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${url}/api${route}`, {
    method,
    headers: { 'x-access-token': token, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as { success: boolean; message: string; result: T };
  if (!json.success) throw new Error(`${method} ${route}: ${json.message}`);
  return json.result;
}

/** The "Demo fleet" token (its code and key), created on the first run and reused after. */
async function demoToken(url: string): Promise<{ code: string; key: string }> {
  const database = createDatabase(databaseTarget({ databaseUrl: env.DATABASE_URL, dataDir }));
  let session: string;
  try {
    session = await new SessionService(database.db, new MemoryBus(), systemClock).create({
      userId: stableId('user', 'admin'),
      companyId: PLATFORM_COMPANY_ID,
      ip: null,
      userAgent: 'npm run demo',
    });
  } finally {
    await database.db.destroy();
  }
  try {
    const page = await call<{
      records: { id: string; code: string; name: string; enabled: boolean }[];
    }>(
      url,
      session,
      'GET',
      `/device/token/list?pageSize=100&name=${encodeURIComponent(TOKEN_NAME)}`,
    );
    const existing = page.records.find((t) => t.name === TOKEN_NAME);
    if (existing && !existing.enabled)
      say(`The "${TOKEN_NAME}" token key is disabled: enable it on the Token Key page.`);
    if (existing) {
      const { tokenKey } = await call<{ tokenKey: string }>(
        url,
        session,
        'GET',
        `/device/token/revealKey?id=${existing.id}`,
      );
      return { code: existing.code, key: tokenKey };
    }
    const created = await call<{ code: string; tokenKey: string }>(
      url,
      session,
      'POST',
      '/device/token/add',
      {
        name: TOKEN_NAME,
        remark: 'Created by npm run demo for its simulated devices',
        autoRegister: true,
      },
    );
    return { code: created.code, key: created.tokenKey };
  } finally {
    await fetch(`${url}/api/sys/logout`, {
      method: 'POST',
      headers: { 'x-access-token': session },
    });
  }
}

if (!(await portIsFree(httpPort)))
  fail(`port ${httpPort} is in use: choose another with PORT=8081 npm run demo`);
if (!env.MQTT_URL && mqttPort !== 0 && !(await portIsFree(mqttPort)))
  fail(
    `MQTT port ${mqttPort} is in use (another broker, such as Mosquitto?): choose another with MQTT_PORT=1884 npm run demo`,
  );
if (!env.MQTT_URL && mqttPort === 0)
  fail('MQTT_PORT=0 turns the embedded broker off: the demo devices need a broker (or MQTT_URL)');

const admin = adminPassword();
const server = spawn(process.execPath, [path.join(repoRoot, 'server/dist/main.js')], {
  cwd: repoRoot,
  env: {
    ...env,
    DATA_DIR: dataDir,
    PORT: String(httpPort),
    MQTT_PORT: String(mqttPort),
    LOG_LEVEL: env.LOG_LEVEL ?? 'warn',
    ...(admin.password ? { ADMIN_PASSWORD: admin.password } : {}),
  },
  stdio: 'inherit',
});
let serverExited = false;
const url = `http://127.0.0.1:${httpPort}`;
/** Replaced once the devices run. */
let stopDevices = () => Promise.resolve();
let stopping = false;

server.once('exit', (code) => {
  serverExited = true;
  if (stopping) return;
  process.stderr.write(`demo: the server stopped (exit code ${code}); stopping the devices\n`);
  void stopDevices().then(() => process.exit(code ?? 1));
});

const shutdown = () => {
  if (stopping) return;
  stopping = true;
  say('\nStopping the demo devices and the server…');
  void stopDevices().then(() => {
    if (serverExited) process.exit(0);
    server.once('exit', () => process.exit(0));
    server.kill('SIGTERM');
  });
};
process.once('SIGINT', shutdown);
process.once('SIGTERM', shutdown);

await waitForHealth(url, () => serverExited);
const token = await demoToken(url).catch((error: unknown) => {
  server.kill('SIGTERM');
  fail(
    `could not get the demo token key: ${error instanceof Error ? error.message : String(error)}`,
  );
});

const fleet = new Fleet(
  {
    url: brokerUrl,
    token: token.key,
    tokenCode: token.code,
    count: DEVICES,
    series: ['R40', 'BL10X', 'S27X'],
    prefix: 'DEMO',
    intervalMs: 10_000,
    keepaliveSec: 60,
    // One of the 50 drops and returns about every five minutes, so the console shows changes.
    churn: 0.0007,
    badPayloadRate: 0,
    sourceIps: [],
    connectRate: 25,
  },
  fleetLogHooks(say),
);
fleet.start();
stopDevices = () => fleet.stop();

const relativeDataDir = path.relative(process.cwd(), dataDir);
const shownDataDir = relativeDataDir.startsWith('..') ? dataDir : relativeDataDir;
say(
  [
    '',
    'BLRMS demo is running.',
    `  Console   http://localhost:${httpPort}   user admin, password ${admin.known ? admin.password : '(the one set when this demo database was created)'}`,
    `  Devices   ${DEVICES} simulated (R40, BL10X, S27X: DEMO000001 … DEMO${String(DEVICES).padStart(6, '0')}) on ${brokerUrl}`,
    `            with the token key "${TOKEN_NAME}"; telemetry every 10 s, now and then a device drops and returns`,
    `  Data      ${shownDataDir} (delete it to start over)`,
    '  Ctrl-C stops the devices and the server.',
    '',
  ].join('\n'),
);
