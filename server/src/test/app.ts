import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { buildApp, type App, type AppOptions } from '../app.js';
import { loadConfig } from '../config.js';
import { OPERATOR_ROLE_ID, PLATFORM_COMPANY_ID, departId } from '../db/seed/seed.js';
import { MemoryBus } from '../platform/bus/memory-bus.js';
import { PasswordHasher } from '../platform/auth/passwords.js';
import type { Db } from '../platform/db/database.js';
import { newId } from '../platform/db/ids.js';
import { freshDatabase } from './database.js';

/**
 * Builds the real app on a fresh database: a temporary SQLite file, or, when DATABASE_URL is set,
 * a database of its own on that PostgreSQL server (created here, dropped on close).
 */

export const ADMIN_PASSWORD = 'Adm1n-Test-Pass';
/** Every captcha the test app issues shows this code. */
export const CAPTCHA_CODE = 'Xy7K';
export const PLATFORM_ID = PLATFORM_COMPANY_ID;
export const TEST_HASH_COST = { timeCost: 2, memoryCost: 4096, parallelism: 1 };

export class TestClock {
  constructor(public now = Date.now()) {}
  readonly read = () => this.now;
  advance(ms: number) {
    this.now += ms;
  }
}

export interface TestContext {
  app: App;
  db: Db;
  clock: TestClock;
  bus: MemoryBus;
  dialect: 'sqlite' | 'postgres';
  captcha(key?: string): Promise<string>;
  loginResponse(
    username: string,
    password: string,
    extra?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  login(username: string, password: string): Promise<string>;
  createCompany(code: string): Promise<string>;
  createUser(input: {
    username: string;
    password: string;
    companyId?: string;
    roleIds?: string[];
    orgCodes?: string[];
    status?: number;
  }): Promise<string>;
  close(): Promise<void>;
}

export async function createTestApp(
  options: { env?: Record<string, string>; app?: AppOptions; webDist?: string } = {},
): Promise<TestContext> {
  const { handle, drop } = await freshDatabase({ migrated: true });
  const clock = new TestClock();
  const bus = new MemoryBus();
  const config = {
    ...loadConfig({
      ADMIN_PASSWORD,
      CAPTCHA: 'on',
      LOG_LEVEL: 'silent',
      // Files (firmware, the mail outbox) of one test app, not the repository's ./data.
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-test-')),
      ...options.env,
    }),
    webDist: options.webDist ?? path.join(os.tmpdir(), 'blrms-no-console'),
  };
  const app = await buildApp(config, {
    database: handle,
    captchaText: () => CAPTCHA_CODE,
    hashCost: TEST_HASH_COST,
    clock: clock.read,
    bus,
    rateLimits: { login: 10_000, captcha: 10_000 },
    logger: false,
    ...options.app,
  });
  await app.ready();
  const db = handle.db;
  const hasher = new PasswordHasher(TEST_HASH_COST);

  const captcha = async (key = `key-${randomBytes(6).toString('hex')}`) => {
    const res = await app.inject({ method: 'GET', url: `/api/sys/randomImage/${key}` });
    if (res.statusCode !== 200) throw new Error(`captcha failed: ${res.body}`);
    return key;
  };

  const loginResponse = async (
    username: string,
    password: string,
    extra: Record<string, string> = {},
  ) => {
    const checkKey = await captcha();
    return app.inject({
      method: 'POST',
      url: '/api/sys/login',
      payload: { username, password, captcha: CAPTCHA_CODE, checkKey, ...extra },
    });
  };

  return {
    app,
    db,
    clock,
    bus,
    dialect: handle.dialect,
    captcha,
    loginResponse,
    async login(username, password) {
      const res = await loginResponse(username, password);
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.body}`);
      return res.json().result.token as string;
    },
    async createCompany(code) {
      const id = newId();
      await db
        .insertInto('sys_company')
        .values({
          id,
          name: `Company ${code}`,
          code,
          status: 1,
          is_platform: 0,
          create_time: clock.now,
          update_time: null,
        })
        .execute();
      return id;
    },
    async createUser(input) {
      const id = newId();
      const companyId = input.companyId ?? PLATFORM_COMPANY_ID;
      await db
        .insertInto('sys_user')
        .values({
          id,
          company_id: companyId,
          username: input.username,
          realname: input.username,
          password_hash: await hasher.hash(input.password),
          avatar: null,
          phone: null,
          email: null,
          status: input.status ?? 1,
          org_code: null,
          del_flag: 0,
          create_by: null,
          create_time: clock.now,
          update_time: null,
        })
        .execute();
      await db
        .insertInto('sys_user_company')
        .values({ user_id: id, company_id: companyId })
        .execute();
      for (const roleId of input.roleIds ?? [OPERATOR_ROLE_ID]) {
        await db.insertInto('sys_user_role').values({ user_id: id, role_id: roleId }).execute();
      }
      for (const orgCode of input.orgCodes ?? []) {
        await db
          .insertInto('sys_user_depart')
          .values({ user_id: id, depart_id: departId(orgCode) })
          .execute();
      }
      return id;
    },
    async close() {
      await app.close();
      await db.destroy();
      await drop();
    },
  };
}

export function authHeaders(token: string, extra: Record<string, string> = {}) {
  return { 'x-access-token': token, ...extra };
}

/**
 * The field problems of an error envelope as `field: rule; other: rule`, or its message when it
 * names no field: what a test compares to say which field the server refused and why.
 */
export function fieldText(body: {
  message: string;
  errors?: { field: string; message: string }[];
}): string {
  return body.errors ? body.errors.map((e) => `${e.field}: ${e.message}`).join('; ') : body.message;
}
