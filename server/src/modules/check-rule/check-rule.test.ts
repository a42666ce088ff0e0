import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  type TestContext,
  fieldText,
} from '../../test/app.js';

const EN = { 'accept-language': 'en-US' };

const PHONE_RULE = {
  ruleCode: 'phone_cn',
  ruleName: 'Mobile number',
  rules: [
    { pattern: '^\\d+$', message: '只能是数字', messageEn: 'Digits only' },
    { pattern: '^1[3-9]\\d{9}$', message: '手机号格式不正确', messageEn: 'Not a mobile number' },
  ],
};

describe('check rules', () => {
  let t: TestContext;
  let admin: Record<string, string>;
  let operator: Record<string, string>;

  beforeAll(async () => {
    t = await createTestApp();
    admin = authHeaders(await t.login('admin', ADMIN_PASSWORD));
    await t.createUser({ username: 'ruleop1', password: 'Ruleop-Pass-1' });
    operator = authHeaders(await t.login('ruleop1', 'Ruleop-Pass-1'));
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Record<string, string>,
    payload?: object,
  ) => t.app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });

  it('are managed by platform administrators: add, list with filters, edit, delete', async () => {
    const added = await call('POST', '/sys/checkRule/add', admin, PHONE_RULE);
    expect(added.statusCode).toBe(200);
    const id = added.json().result.id as string;
    await call('POST', '/sys/checkRule/add', admin, {
      ruleCode: 'zip_100',
      ruleName: '邮编',
      rules: [{ pattern: '^\\d{6}$', message: '邮编是 6 位数字', messageEn: 'Six digits' }],
    });

    const filtered = await call('GET', '/sys/checkRule/list?ruleCode=phone', admin);
    expect(filtered.json().result.total).toBe(1);
    expect(filtered.json().result.records[0]).toMatchObject({
      ruleCode: 'phone_cn',
      rules: PHONE_RULE.rules,
    });
    const literal = await call('GET', '/sys/checkRule/list?ruleCode=%25', admin);
    expect(literal.json().result.total).toBe(0);
    const sorted = await call('GET', '/sys/checkRule/list?column=ruleCode&order=asc', admin);
    expect(sorted.json().result.records.map((r: { ruleCode: string }) => r.ruleCode)).toEqual([
      'phone_cn',
      'zip_100',
    ]);

    const edited = await call('PUT', '/sys/checkRule/edit', admin, {
      ...PHONE_RULE,
      id,
      ruleName: 'Mobile',
    });
    expect(edited.statusCode).toBe(200);
    expect(
      (await call('GET', `/sys/checkRule/queryById?id=${id}`, admin)).json().result.ruleName,
    ).toBe('Mobile');

    const dup = await call('POST', '/sys/checkRule/add', admin, PHONE_RULE);
    expect(dup.statusCode).toBe(409);

    const zip = (await call('GET', '/sys/checkRule/list?ruleCode=zip', admin)).json().result
      .records[0].id;
    expect((await call('DELETE', `/sys/checkRule/delete?id=${zip}`, admin)).statusCode).toBe(200);
    expect((await call('GET', `/sys/checkRule/queryById?id=${zip}`, admin)).statusCode).toBe(404);
  });

  it('check values: an empty value passes, a failure carries the rule message in the user language', async () => {
    const pass = await call(
      'GET',
      '/sys/checkRule/checkByCode?ruleCode=phone_cn&value=13800000000',
      operator,
    );
    expect(pass.statusCode).toBe(200);
    expect(
      (await call('GET', '/sys/checkRule/checkByCode?ruleCode=phone_cn&value=', operator))
        .statusCode,
    ).toBe(200);
    expect(
      (await call('GET', '/sys/checkRule/checkByCode?ruleCode=phone_cn', operator)).statusCode,
    ).toBe(200);

    const letters = await call(
      'GET',
      '/sys/checkRule/checkByCode?ruleCode=phone_cn&value=abc',
      operator,
    );
    expect(letters.statusCode).toBe(400);
    expect(letters.json().message).toBe('只能是数字');
    const short = await call(
      'GET',
      `/sys/checkRule/checkByCode?ruleCode=phone_cn&value=${encodeURIComponent('12345')}`,
      { ...operator, ...EN },
    );
    expect(short.json().message).toBe('Not a mobile number');

    const unknown = await call('GET', '/sys/checkRule/checkByCode?ruleCode=nope&value=1', {
      ...operator,
      ...EN,
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Check rule not found');
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: '/api/sys/checkRule/checkByCode?ruleCode=phone_cn&value=1',
        })
      ).statusCode,
    ).toBe(401);
  });

  it('refuse patterns that could hang the server, naming the rule', async () => {
    for (const pattern of ['(a)\\1', '(?=a)b', '(?<!a)b', '[a-']) {
      const res = await call(
        'POST',
        '/sys/checkRule/add',
        { ...admin, ...EN },
        { ruleCode: 'unsafe', ruleName: 'x', rules: [{ pattern, message: 'x', messageEn: 'x' }] },
      );
      expect(res.statusCode, pattern).toBe(400);
      expect(fieldText(res.json())).toMatch(
        /^rules\.0\.pattern: not a valid RE2 regular expression/,
      );
    }
    const long = await call(
      'POST',
      '/sys/checkRule/add',
      { ...admin, ...EN },
      {
        ruleCode: 'long',
        ruleName: 'x',
        rules: [{ pattern: 'a'.repeat(201), message: 'x', messageEn: 'x' }],
      },
    );
    expect(fieldText(long.json())).toMatch(/^rules\.0\.pattern: must be at most 200 characters/);

    // Exponential for backtracking engines; RE2 answers in linear time.
    await call('POST', '/sys/checkRule/add', admin, {
      ruleCode: 'nested',
      ruleName: 'Nested',
      rules: [{ pattern: '^(a+)+$', message: '只能是 a', messageEn: 'Only a' }],
    });
    const res = await call(
      'GET',
      `/sys/checkRule/checkByCode?ruleCode=nested&value=${'a'.repeat(400)}!`,
      { ...operator, ...EN },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Only a');
  });

  it('refuse fields the form does not offer and values beyond the limits', async () => {
    const extra = await call(
      'POST',
      '/sys/checkRule/add',
      { ...admin, ...EN },
      { ...PHONE_RULE, ruleCode: 'x1', id: 'a'.repeat(32) },
    );
    expect(extra.json().message).toBe('id is not an allowed field');
    const itemExtra = await call(
      'POST',
      '/sys/checkRule/add',
      { ...admin, ...EN },
      {
        ruleCode: 'x2',
        ruleName: 'x',
        rules: [{ pattern: 'a', message: 'x', messageEn: 'x', flags: 'g' }],
      },
    );
    expect(itemExtra.json().message).toMatch(/flags is not an allowed field/);
    const sort = await call('GET', '/sys/checkRule/list?column=rule_json', { ...admin, ...EN });
    expect(sort.statusCode).toBe(400);
    const value = await call(
      'GET',
      `/sys/checkRule/checkByCode?ruleCode=phone_cn&value=${'1'.repeat(501)}`,
      { ...operator, ...EN },
    );
    expect(fieldText(value.json())).toMatch(/^value: must be at most 500 characters/);
  });

  it('deny every admin endpoint to a user without the permissions', async () => {
    const id = (await call('GET', '/sys/checkRule/list?ruleCode=phone_cn', admin)).json().result
      .records[0].id;
    const denied = [
      await call('GET', '/sys/checkRule/list', operator),
      await call('GET', `/sys/checkRule/queryById?id=${id}`, operator),
      await call('POST', '/sys/checkRule/add', operator, { ...PHONE_RULE, ruleCode: 'mine' }),
      await call('PUT', '/sys/checkRule/edit', operator, { ...PHONE_RULE, id }),
      await call('DELETE', `/sys/checkRule/delete?id=${id}`, operator),
      await call('DELETE', `/sys/checkRule/deleteBatch?ids=${id}`, operator),
    ];
    expect(denied.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403, 403]);
    expect(
      (await call('GET', `/sys/checkRule/queryById?id=${id}`, admin)).json().result.ruleName,
    ).toBe('Mobile');
  });

  it('delete in batches', async () => {
    const ids = (await call('GET', '/sys/checkRule/list', admin))
      .json()
      .result.records.map((r: { id: string }) => r.id);
    expect(ids.length).toBeGreaterThan(0);
    const res = await call('DELETE', `/sys/checkRule/deleteBatch?ids=${ids.join(',')}`, admin);
    expect(res.statusCode).toBe(200);
    expect((await call('GET', '/sys/checkRule/list', admin)).json().result.total).toBe(0);
    const bad = await call('DELETE', "/sys/checkRule/deleteBatch?ids=x' or '1'='1", {
      ...admin,
      ...EN,
    });
    expect(bad.statusCode).toBe(400);
  });
});
