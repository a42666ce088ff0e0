import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, authHeaders, createTestApp, type TestContext } from '../../test/app.js';
import { fromDatabase } from '../db/unavailable.js';
import { registerErrorHandling } from './error-handler.js';

describe('envelope and errors', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('wraps success in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      message: '',
      code: 200,
      result: { status: 'ok', db: 'ok', version: expect.any(String) },
      timestamp: expect.any(Number),
    });
  });

  it('answers unknown API paths with a localized JSON 404', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/sys/nope'],
      ['GET', '/api'],
      ['DELETE', '/api/sys/login'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({
        success: false,
        message: '很抱歉，资源未找到!',
        code: 404,
        result: null,
        timestamp: expect.any(Number),
      });
    }
    const en = await t.app.inject({
      method: 'GET',
      url: '/api/nope',
      headers: { 'accept-language': 'en-US' },
    });
    expect(en.json().message).toBe('Sorry, the resource was not found');
  });

  it('answers malformed JSON with 400 and no parser details', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sys/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 400, message: '请求参数错误' });
  });

  it('names the field and rule of invalid input in the request language', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/sys/log/list?pageSize=5000',
      headers: authHeaders(token, { 'accept-language': 'en-US' }),
    });
    expect(res.json()).toMatchObject({
      message: 'Page size: must be at most 1000',
      errors: [{ field: 'pageSize', message: 'must be at most 1000' }],
    });
    const zh = await t.app.inject({
      method: 'GET',
      url: '/api/sys/log/list?pageSize=5000',
      headers: authHeaders(token),
    });
    expect(zh.json()).toMatchObject({
      message: '每页条数：不能大于 1000',
      errors: [{ field: 'pageSize', message: '不能大于 1000' }],
    });
  });

  // Issue 16: "roleCode: 角色编码已存在", "code: 职务编码已存在", "password: 过于常见，请换一个",
  // "id: 必须是 32 位 ID" showed API keys to the reader; the form could not tell which field.
  it('names fields by label in the message and by key in errors, in both languages', async () => {
    const token = await t.login('admin', ADMIN_PASSWORD);
    const call = (method: 'POST' | 'PUT', url: string, payload: object, lang = 'zh-CN') =>
      t.app.inject({
        method,
        url: `/api${url}`,
        headers: authHeaders(token, { 'accept-language': lang }),
        payload,
      });
    const role = { roleCode: 'msgcheck', roleName: 'x' };
    expect((await call('POST', '/sys/role/add', role)).statusCode).toBe(200);
    const position = { code: 'MSGCHECK', name: 'x', postRank: '3' };
    expect((await call('POST', '/sys/position/add', position)).statusCode).toBe(200);
    const weak = { username: 'admin', password: 'password123', confirmpassword: 'password123' };
    const badId = { id: 'x', roleCode: 'x1', roleName: 'x' };
    const cases = [
      [
        ['POST', '/sys/role/add', role],
        'roleCode',
        '角色编码已存在',
        'this role code already exists',
      ],
      [
        ['POST', '/sys/position/add', position],
        'code',
        '职务编码已存在',
        'this position code already exists',
      ],
      [
        ['PUT', '/sys/user/changePassword', weak],
        'password',
        '密码：过于常见，请换一个',
        'Password: is too common',
      ],
      [['PUT', '/sys/role/edit', badId], 'id', '必须是 32 位 ID', 'must be a 32-character id'],
    ] as const;
    for (const [[method, url, body], field, zh, en] of cases) {
      for (const [lang, text] of [
        ['zh-CN', zh],
        ['en-US', en],
      ] as const) {
        const res = await call(method, url, body, lang);
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        const json = res.json();
        expect(json.message).toBe(text);
        expect(json.errors).toHaveLength(1);
        expect(json.errors[0].field).toBe(field);
        expect(text.endsWith(json.errors[0].message)).toBe(true);
      }
    }
  });
});

describe('5xx', () => {
  let t: TestContext;
  const logged: string[] = [];
  beforeAll(async () => {
    t = await createTestApp({
      app: {
        logger: {
          level: 'error',
          stream: { write: (line: string) => logged.push(line) },
        },
      },
    });
  });
  afterAll(() => t.close());

  it('never leaks internals, and logs them', async () => {
    // A missing table stands in for any bug that reaches the error handler.
    await t.db.schema.dropTable('sys_log').execute();
    const failed = await t.loginResponse('admin', ADMIN_PASSWORD);
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toEqual({
      success: false,
      message: '服务器内部错误',
      code: 500,
      result: null,
      timestamp: expect.any(Number),
    });
    expect(failed.body).not.toMatch(/sys_log|SQL|table|stack/i);
    expect(logged.join('\n')).toMatch(/sys_log/);
    expect(logged.join('\n')).not.toContain(ADMIN_PASSWORD);
  });
});

describe('database unavailable', () => {
  it('answers 503 with the localized message, and logs without the stack', async () => {
    const logged: string[] = [];
    const app = Fastify({
      logger: { level: 'error', stream: { write: (line: string) => logged.push(line) } },
    });
    registerErrorHandling(app);
    app.get('/refused', async () => {
      throw fromDatabase(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      );
    });
    app.get('/other', async () => {
      // The same code from another service (SMTP, Redis) is a plain internal error.
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:25'), { code: 'ECONNREFUSED' });
    });
    try {
      const zh = await app.inject({ method: 'GET', url: '/refused' });
      expect(zh.statusCode).toBe(503);
      expect(zh.json()).toEqual({
        success: false,
        message: '数据库暂不可用，请稍后再试',
        code: 503,
        result: null,
        timestamp: expect.any(Number),
      });
      const en = await app.inject({
        method: 'GET',
        url: '/refused',
        headers: { 'accept-language': 'en-US' },
      });
      expect(en.json().message).toBe('The database is unavailable; please try again later');
      expect(logged.join('\n')).toMatch(/database unavailable/);

      const other = await app.inject({ method: 'GET', url: '/other' });
      expect(other.statusCode).toBe(500);
    } finally {
      await app.close();
    }
  });
});
