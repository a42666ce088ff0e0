import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, authHeaders, createTestApp, type TestContext } from '../../test/app.js';
import { newId } from '../../platform/db/ids.js';

describe('duplicate check', () => {
  let t: TestContext;
  let token: string;
  let otherCompany: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login('admin', ADMIN_PASSWORD);
    otherCompany = await t.createCompany('acme');
    await t.db
      .insertInto('sys_role')
      .values({
        id: newId(),
        company_id: otherCompany,
        role_code: 'acme_only',
        role_name: 'Acme',
        role_name_en: null,
        description: null,
        create_time: 0,
      })
      .execute();
  });
  afterAll(() => t.close());

  const check = (query: string, lang = 'zh-CN') =>
    t.app.inject({
      method: 'GET',
      url: `/api/sys/duplicate/check?${query}`,
      headers: authHeaders(token, { 'accept-language': lang }),
    });

  it('says a free value is available', async () => {
    const res = await check('tableName=sys_user&fieldName=username&fieldVal=newbie&_t=1');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: '该值可用！' });
    expect(
      (await check('tableName=sys_user&fieldName=username&fieldVal=newbie', 'en-US')).json()
        .message,
    ).toBe('Value is available');
  });

  it('answers 409 for a taken value', async () => {
    const res = await check('tableName=sys_user&fieldName=username&fieldVal=admin');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      success: false,
      code: 409,
      message: '该值不可用，系统中已存在！',
    });
    const en = await check('tableName=sys_role&fieldName=role_code&fieldVal=admin', 'en-US');
    expect(en.json().message).toBe('This value already exists');
  });

  it('excludes the record being edited', async () => {
    const admin = await t.db
      .selectFrom('sys_user')
      .select('id')
      .where('username', '=', 'admin')
      .executeTakeFirstOrThrow();
    const res = await check(
      `tableName=sys_user&fieldName=username&fieldVal=admin&dataId=${admin.id}`,
    );
    expect(res.statusCode).toBe(200);
  });

  it('lets an empty value pass', async () => {
    expect((await check('tableName=sys_user&fieldName=email&fieldVal=')).statusCode).toBe(200);
    expect((await check('tableName=sys_user&fieldName=email')).statusCode).toBe(200);
  });

  it('checks company-owned codes within the current company only', async () => {
    expect(
      (await check('tableName=sys_role&fieldName=role_code&fieldVal=acme_only')).statusCode,
    ).toBe(200);
  });

  it.each([
    'tableName=sys_user&fieldName=password&fieldVal=x',
    'tableName=sys_user&fieldName=password_hash&fieldVal=x',
    'tableName=sys_user&fieldName=updatexml(1,concat(0x7e,user(),0x7e),1)&fieldVal=x',
    `tableName=sys_user&fieldName=${encodeURIComponent('username/**/or/**/1=1')}&fieldVal=x`,
    `tableName=sys_user&fieldName=${encodeURIComponent('username\tor\t1=1')}&fieldVal=x`,
    `tableName=${encodeURIComponent('sys_user where 1=1 --')}&fieldName=username&fieldVal=x`,
    `tableName=${encodeURIComponent('sys_user;drop table sys_user')}&fieldName=username&fieldVal=x`,
    'tableName=sys_session&fieldName=token_hash&fieldVal=x',
    'tableName=toString&fieldName=username&fieldVal=x',
    'tableName=__proto__&fieldName=username&fieldVal=x',
    'tableName=sys_user&fieldName=username&fieldVal=x&extra=1',
  ])('refuses %s with 400', async (query) => {
    const res = await check(query);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 400, result: null });
  });

  it('treats injection in the value as plain data', async () => {
    const values = [
      "admin' or '1'='1",
      'admin/**/',
      "x'; drop table sys_user; --",
      'admin%',
      'adm_n',
    ];
    for (const v of values) {
      const res = await check(
        `tableName=sys_user&fieldName=username&fieldVal=${encodeURIComponent(v)}`,
      );
      expect(res.statusCode).toBe(200);
    }
    expect(await t.db.selectFrom('sys_user').select('id').execute()).not.toHaveLength(0);
  });
});
