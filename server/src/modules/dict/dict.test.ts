import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';

describe('dictionaries', () => {
  let t: TestContext;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login('admin', ADMIN_PASSWORD);
  });
  afterAll(() => t.close());

  const get = (path: string, headers: Record<string, string> = authHeaders(token)) =>
    t.app.inject({ method: 'GET', url: path, headers });

  it('returns the items in order, labelled in the request language', async () => {
    const zh = await get('/api/sys/dict/getDictItems/priority');
    expect(zh.statusCode).toBe(200);
    expect(zh.json().result).toEqual([
      { value: 'L', text: '一般消息', label: '一般消息', color: 'blue' },
      { value: 'M', text: '重要消息', label: '重要消息', color: 'orange' },
      { value: 'H', text: '紧急消息', label: '紧急消息', color: 'red' },
    ]);
    const en = await get(
      '/api/sys/dict/getDictItems/user_status',
      authHeaders(token, { 'accept-language': 'en-US' }),
    );
    expect(en.json().result.map((i: { text: string }) => i.text)).toEqual(['Normal', 'Frozen']);
  });

  it('answers 404 for an unknown dictionary', async () => {
    const res = await get('/api/sys/dict/getDictItems/no_such_dict');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false, code: 404, result: null });
  });

  it.each([
    'sys_user,username,password',
    '`sys_user`',
    'sys_user t',
    '1=1',
    "sex' or '1'='1",
    'sys_user,username,password,1=1',
  ])('refuses the table-dictionary probe %s with 400', async (code) => {
    const res = await get(`/api/sys/dict/getDictItems/${encodeURIComponent(code)}`);
    expect(res.statusCode).toBe(400);
    expect(fieldText(res.json())).toMatch(/^dictCode: /);
    expect(res.body).not.toMatch(/argon2|password_hash/);
  });

  it('needs a session even with a static-file suffix', async () => {
    const res = await get('/api/sys/dict/getDictItems/sex.js', {});
    expect(res.statusCode).toBe(401);
    const withToken = await get('/api/sys/dict/getDictItems/sex.js');
    expect(withToken.statusCode).toBe(400);
  });

  it.each([
    '/api/..;/sys/dict/getDictItems/priority',
    '/api/sys/..;/sys/dict/getDictItems/priority',
    '/api/sys/dict/getDictItems/..;/priority',
    '/api/sys/dict/getDictItems/priority;.js',
    '/api/sys/dict/getDictItems/priority/..;',
    '/api/;/sys/dict/getDictItems/priority',
    '/api/%2e%2e;/sys/dict/getDictItems/priority',
    '/api/sys/dict/getDictItems/priority%00.js',
  ])('gives no data without a session for the path trick %s', async (path) => {
    const res = await get(path, {});
    expect([400, 401, 404]).toContain(res.statusCode);
    expect(res.json()).toMatchObject({ success: false, result: null });
  });
});
