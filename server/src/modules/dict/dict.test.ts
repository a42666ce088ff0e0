import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_COMPANY_ID, seed } from '../../db/seed/seed.js';
import { PasswordHasher } from '../../platform/auth/passwords.js';
import { xlsxBuffer } from '../../platform/sheet/sheet-writer.js';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  TEST_HASH_COST,
  type TestContext,
  fieldText,
} from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import { importForm } from '../../test/devices.js';

const EN = { 'accept-language': 'en-US' };
const ALL_PERMS = [
  'system:dict:list',
  'system:dict:add',
  'system:dict:edit',
  'system:dict:delete',
  'system:dict:import',
  'system:dict:export',
  'system:dict:recycle',
];

type Headers = Record<string, string>;

describe('dictionary administration', () => {
  let t: TestContext;
  let admin: Headers;
  let acme: Headers;
  let beta: Headers;
  let viewer: Headers;
  let acmeId: string;

  beforeAll(async () => {
    t = await createTestApp();
    admin = authHeaders(await t.login('admin', ADMIN_PASSWORD));
    acmeId = (
      await createCompanyAdmin(t, {
        code: 'acme',
        username: 'acmeadmin',
        password: 'Acme-Pass-123',
        perms: ALL_PERMS,
      })
    ).companyId;
    acme = authHeaders(await t.login('acmeadmin', 'Acme-Pass-123'));
    await createCompanyAdmin(t, {
      code: 'beta',
      username: 'betaadmin',
      password: 'Beta-Pass-123',
      perms: ALL_PERMS,
    });
    beta = authHeaders(await t.login('betaadmin', 'Beta-Pass-123'));
    await createCompanyAdmin(t, {
      code: 'gamma',
      username: 'gammaviewer',
      password: 'Gamma-Pass-123',
      perms: ['system:dict:list'],
    });
    viewer = authHeaders(await t.login('gammaviewer', 'Gamma-Pass-123'));
  });
  afterAll(() => t.close());

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    headers: Headers,
    payload?: object,
  ) => t.app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });

  const items = async (code: string, headers: Headers) => {
    const res = await call('GET', `/sys/dict/getDictItems/${code}`, headers);
    return res.statusCode === 200
      ? (res.json().result as { value: string; text: string }[]).map((i) => `${i.value}=${i.text}`)
      : res.statusCode;
  };

  const addDict = async (headers: Headers, dictCode: string, extra: object = {}) => {
    const res = await call('POST', '/sys/dict/add', headers, {
      dictName: `名称 ${dictCode}`,
      dictNameEn: `Name ${dictCode}`,
      dictCode,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.id as string;
  };

  const addItem = async (headers: Headers, dictId: string, itemValue: string, extra = {}) => {
    const res = await call('POST', '/sys/dictItem/add', headers, {
      dictId,
      itemValue,
      itemText: `文本${itemValue}`,
      itemTextEn: `Text ${itemValue}`,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.id as string;
  };

  it('lets a platform administrator build a dictionary that every company reads', async () => {
    const id = await addDict(admin, 'shift', { description: '班次' });
    await addItem(admin, id, 'night', { sortOrder: 2 });
    await addItem(admin, id, 'day', { sortOrder: 1 });
    await addItem(admin, id, 'off', { sortOrder: 3, status: 0 });

    // Ordered by sortOrder, disabled items left out, labelled in the request language.
    expect(await items('shift', admin)).toEqual(['day=文本day', 'night=文本night']);
    expect(await items('shift', { ...acme, ...EN })).toEqual(['day=Text day', 'night=Text night']);

    const page = await call('GET', '/sys/dictItem/list?dictId=' + id, admin);
    expect(page.json().result.records.map((r: { itemValue: string }) => r.itemValue)).toEqual([
      'day',
      'night',
      'off',
    ]);
    const enabledOnly = await call('GET', `/sys/dictItem/list?dictId=${id}&status=0`, admin);
    expect(enabledOnly.json().result.total).toBe(1);

    const listed = await call('GET', '/sys/dict/list?dictCode=shi', acme);
    expect(listed.json().result.records).toEqual([
      expect.objectContaining({ dictCode: 'shift', platform: true, editable: false }),
    ]);
    const byName = await call('GET', '/sys/dict/list?dictName=Name%20shi', admin);
    expect(byName.json().result.records[0]).toMatchObject({ dictCode: 'shift', editable: true });
  });

  it('refuses bad input field by field, and duplicates with 409', async () => {
    const bad = await call(
      'POST',
      '/sys/dict/add',
      { ...admin, ...EN },
      {
        dictName: '',
        dictCode: '1bad code',
      },
    );
    expect(bad.statusCode).toBe(400);
    expect(fieldText(bad.json())).toMatch(/dictName: .*dictCode: must be a dictionary code/s);

    const dup = await call(
      'POST',
      '/sys/dict/add',
      { ...admin, ...EN },
      {
        dictName: 'again',
        dictCode: 'shift',
      },
    );
    expect(dup.statusCode).toBe(409);
    expect(fieldText(dup.json())).toBe('dictCode: is already used by another dictionary');

    const shift = await call('GET', '/sys/dict/list?dictCode=shift', admin);
    const dictId = shift.json().result.records[0].id as string;
    const value = await call(
      'POST',
      '/sys/dictItem/add',
      { ...admin, ...EN },
      {
        dictId,
        itemValue: 'day',
        itemText: 'x',
      },
    );
    expect(value.statusCode).toBe(409);
    expect(fieldText(value.json())).toBe('itemValue: is already used in this dictionary');
    const control = await call('POST', '/sys/dictItem/add', admin, {
      dictId,
      itemValue: 'a\u0007b',
      itemText: 'x',
      itemColor: 'red; background:url(x)',
    });
    expect(control.statusCode).toBe(400);
    expect(fieldText(control.json())).toMatch(/itemValue: .*itemColor: /s);

    const check = await call(
      'GET',
      `/sys/dictItem/dictItemCheck?dictId=${dictId}&itemValue=day`,
      admin,
    );
    expect(check.statusCode).toBe(409);
    const free = await call(
      'GET',
      `/sys/dictItem/dictItemCheck?dictId=${dictId}&itemValue=evening`,
      admin,
    );
    expect(free.statusCode).toBe(200);
  });

  it('keeps platform dictionaries read-only to companies, which may replace them with their own', async () => {
    const platform = await call('GET', '/sys/dict/list?dictCode=priority', acme);
    const priority = platform.json().result.records[0];
    expect(priority).toMatchObject({ platform: true, editable: false, overridden: false });

    const edit = await call(
      'PUT',
      '/sys/dict/edit',
      { ...acme, ...EN },
      {
        id: priority.id,
        dictName: 'mine now',
        dictCode: 'priority',
      },
    );
    expect(edit.statusCode).toBe(403);
    expect(edit.json().message).toMatch(/platform administrators/);
    const item = await call('POST', '/sys/dictItem/add', acme, {
      dictId: priority.id,
      itemValue: 'X',
      itemText: 'x',
    });
    expect(item.statusCode).toBe(403);
    expect((await call('DELETE', `/sys/dict/delete?id=${priority.id}`, acme)).statusCode).toBe(403);
    const platformItems = await call('GET', `/sys/dictItem/list?dictId=${priority.id}`, acme);
    expect(platformItems.statusCode).toBe(200);
    const platformItemId = platformItems.json().result.records[0].id as string;
    expect(
      (await call('DELETE', `/sys/dictItem/delete?id=${platformItemId}`, acme)).statusCode,
    ).toBe(403);

    // Acme's own `priority` replaces the platform's for Acme only.
    const own = await addDict(acme, 'priority');
    await addItem(acme, own, 'P1', { itemText: '最高' });
    expect(await items('priority', acme)).toEqual(['P1=最高']);
    expect(await items('priority', beta)).toEqual(['L=一般消息', 'M=重要消息', 'H=紧急消息']);
    const listed = await call('GET', '/sys/dict/list?dictCode=priority&column=dictCode', acme);
    expect(
      listed
        .json()
        .result.records.map((r: { platform: boolean; overridden: boolean }) => [
          r.platform,
          r.overridden,
        ]),
    ).toEqual(
      expect.arrayContaining([
        [true, true],
        [false, false],
      ]),
    );
  });

  it('isolates companies: another company’s dictionary or item is a missing one', async () => {
    const mine = await addDict(acme, 'acme_only');
    const itemId = await addItem(acme, mine, 'v1');
    expect(await items('acme_only', beta)).toBe(404);
    const betaList = await call('GET', '/sys/dict/list?dictCode=acme_only', beta);
    expect(betaList.json().result.total).toBe(0);
    const attempts = [
      call('PUT', '/sys/dict/edit', beta, { id: mine, dictName: 'x', dictCode: 'acme_only' }),
      call('DELETE', `/sys/dict/delete?id=${mine}`, beta),
      call('GET', `/sys/dictItem/list?dictId=${mine}`, beta),
      call('POST', '/sys/dictItem/add', beta, { dictId: mine, itemValue: 'z', itemText: 'z' }),
      call('PUT', '/sys/dictItem/edit', beta, { id: itemId, itemValue: 'v1', itemText: 'hacked' }),
      call('DELETE', `/sys/dictItem/delete?id=${itemId}`, beta),
      call('GET', `/sys/dictItem/dictItemCheck?dictId=${mine}&itemValue=v1`, beta),
      call('PUT', `/sys/dict/back/${mine}`, beta),
      call('DELETE', `/sys/dict/deletePhysic/${mine}`, beta),
    ];
    for (const res of await Promise.all(attempts)) expect(res.statusCode, res.body).toBe(404);
    // Beta may use the same code for its own dictionary.
    await addDict(beta, 'acme_only');
    expect(await items('acme_only', acme)).toEqual(['v1=文本v1']);
    // The platform administrator's list shows platform dictionaries, not Acme's.
    const platformList = await call('GET', '/sys/dict/list?dictCode=acme_only', admin);
    expect(platformList.json().result.total).toBe(0);
    // A batch with one foreign id moves nothing.
    const batch = await call(
      'DELETE',
      `/sys/dict/deleteBatch?ids=${mine},${(await call('GET', '/sys/dict/list?dictCode=acme_only', beta)).json().result.records[0].id}`,
      acme,
    );
    expect(batch.statusCode).toBe(404);
    expect(await items('acme_only', acme)).toEqual(['v1=文本v1']);
  });

  it('moves deleted dictionaries to a recycle bin, from which they are restored or purged', async () => {
    const id = await addDict(acme, 'bin_me');
    await addItem(acme, id, 'a');
    const other = await addDict(acme, 'bin_too');
    expect(
      (await call('DELETE', `/sys/dict/deleteBatch?ids=${id},${other}`, acme)).statusCode,
    ).toBe(200);
    expect(await items('bin_me', acme)).toBe(404);
    const list = await call('GET', '/sys/dict/list?dictCode=bin_', acme);
    expect(list.json().result.total).toBe(0);
    const bin = await call('GET', '/sys/dict/deleteList?dictCode=bin_', acme);
    expect(
      bin
        .json()
        .result.records.map((r: { dictCode: string }) => r.dictCode)
        .sort(),
    ).toEqual(['bin_me', 'bin_too']);
    expect(
      (await call('GET', '/sys/dict/deleteList?dictCode=bin_', beta)).json().result.total,
    ).toBe(0);

    const again = await call(
      'POST',
      '/sys/dict/add',
      { ...acme, ...EN },
      {
        dictName: 'x',
        dictCode: 'bin_me',
      },
    );
    expect(again.statusCode).toBe(409);
    expect(fieldText(again.json())).toMatch(/^dictCode: a dictionary in the recycle bin/);
    expect(
      (await call('POST', '/sys/dictItem/add', acme, { dictId: id, itemValue: 'b', itemText: 'b' }))
        .statusCode,
    ).toBe(404);

    expect((await call('PUT', `/sys/dict/back/${id}`, acme)).statusCode).toBe(200);
    expect(await items('bin_me', acme)).toEqual(['a=文本a']);
    expect((await call('PUT', `/sys/dict/back/${id}`, acme)).statusCode).toBe(404);
    // Only what is in the recycle bin can be purged.
    expect((await call('DELETE', `/sys/dict/deletePhysic/${id}`, acme)).statusCode).toBe(404);
    expect((await call('DELETE', `/sys/dict/deletePhysic/${other}`, acme)).statusCode).toBe(200);
    expect(
      (await call('GET', '/sys/dict/deleteList?dictCode=bin_', acme)).json().result.total,
    ).toBe(0);
    await addDict(acme, 'bin_too');
  });

  it('checks each button’s permission on the server', async () => {
    const shift = (await call('GET', '/sys/dict/list?dictCode=shift', viewer)).json().result
      .records[0];
    expect(shift).toMatchObject({ dictCode: 'shift' });
    const refused = [
      call('POST', '/sys/dict/add', viewer, { dictName: 'x', dictCode: 'viewer_x' }),
      call('PUT', '/sys/dict/edit', viewer, { id: shift.id, dictName: 'x', dictCode: 'shift' }),
      call('DELETE', `/sys/dict/delete?id=${shift.id}`, viewer),
      call('GET', '/sys/dict/deleteList', viewer),
      call('PUT', `/sys/dict/back/${shift.id}`, viewer),
      call('DELETE', `/sys/dict/deletePhysic/${shift.id}`, viewer),
      call('GET', '/sys/dict/exportXls', viewer),
      call('POST', '/sys/dictItem/add', viewer, {
        dictId: shift.id,
        itemValue: 'x',
        itemText: 'x',
      }),
    ];
    for (const res of await Promise.all(refused)) expect(res.statusCode, res.body).toBe(403);
    // Any signed-in user reads items; the list needs system:dict:list.
    await t.createUser({ username: 'dictop', password: 'Dictop-Pass-1' });
    const operator = authHeaders(await t.login('dictop', 'Dictop-Pass-1'));
    expect(await items('shift', operator)).toEqual(['day=文本day', 'night=文本night']);
    expect((await call('GET', '/sys/dict/list', operator)).statusCode).toBe(403);
    expect((await call('GET', '/sys/dict/list', {})).statusCode).toBe(401);
  });

  it('caches items per node until a change or a refresh reaches it over the bus', async () => {
    expect(await items('yn', admin)).toEqual(['1=是', '0=否']);
    // A write that bypasses the service (another node's, before its event arrives).
    await t.db
      .updateTable('sys_dict_item')
      .set({ item_text: '对' })
      .where('item_value', '=', '1')
      .where('dict_id', 'in', (eb) =>
        eb.selectFrom('sys_dict').select('id').where('dict_code', '=', 'yn'),
      )
      .execute();
    expect(await items('yn', admin)).toEqual(['1=是', '0=否']);
    const events: unknown[] = [];
    const off = t.bus.subscribe('dict.changed', (e) => events.push(e));
    const refreshed = await call('GET', '/sys/dict/refleshCache', { ...admin, ...EN });
    off();
    expect(refreshed.json().message).toBe('Dictionary caches refreshed on every node');
    expect(events).toEqual([{}]);
    expect(await items('yn', admin)).toEqual(['1=对', '0=否']);

    // Another node's change of the platform's dictionaries drops every company's entries.
    expect(await items('yn', acme)).toEqual(['1=对', '0=否']);
    await t.db
      .updateTable('sys_dict_item')
      .set({ item_text: '是' })
      .where('item_text', '=', '对')
      .execute();
    await t.bus.publish('dict.changed', { companyId: PLATFORM_COMPANY_ID });
    expect(await items('yn', acme)).toEqual(['1=是', '0=否']);
  });

  it('leaves the seeded items to the administrator across restarts, and recreates a purged seed dictionary', async () => {
    const ranks = (await call('GET', '/sys/dict/list?dictCode=position_rank', admin)).json().result
      .records[0] as { id: string };
    const rankItems = await call('GET', `/sys/dictItem/list?dictId=${ranks.id}`, admin);
    const staff = rankItems
      .json()
      .result.records.find((r: { itemValue: string }) => r.itemValue === '1') as { id: string };
    expect((await call('DELETE', `/sys/dictItem/delete?id=${staff.id}`, admin)).statusCode).toBe(
      200,
    );
    const orgs = (await call('GET', '/sys/dict/list?dictCode=org_category', admin)).json().result
      .records[0] as { id: string };
    await call('DELETE', `/sys/dict/delete?id=${orgs.id}`, admin);
    await call('DELETE', `/sys/dict/deletePhysic/${orgs.id}`, admin);

    await seed(t.db, {
      adminPassword: ADMIN_PASSWORD,
      hasher: new PasswordHasher(TEST_HASH_COST),
      clock: t.clock.read,
      announce: () => undefined,
      menu: t.app.menuRows,
    });
    await call('GET', '/sys/dict/refleshCache', admin);
    expect(await items('position_rank', admin)).not.toContain('1=员级');
    expect(await items('org_category', admin)).toEqual(['1=公司', '2=部门', '3=岗位']);
  });

  describe('export and import', () => {
    const upload = (headers: Headers, content: Buffer, name = 'dicts.xlsx') => {
      const form = importForm({ name, content }, {});
      return t.app.inject({
        method: 'POST',
        url: '/api/sys/dict/importExcel',
        headers: { ...headers, ...form.headers },
        payload: form.payload,
      });
    };
    const HEADER = [
      '字典编码',
      '字典名称',
      '字典英文名称',
      '字典描述',
      '数据值',
      '名称',
      '英文名称',
      '描述',
      '排序',
      '启用(1/0)',
    ];

    it('exports the company’s own dictionaries, one row per item', async () => {
      const res = await call('GET', '/sys/dict/exportXls?dictCode=acme_only', { ...acme, ...EN });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/spreadsheetml/);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const rows = book.worksheets[0]?.getSheetValues().slice(1) as string[][];
      expect(rows[0]?.slice(1, 6)).toEqual([
        'Dictionary code',
        'Dictionary name',
        'Dictionary name (English)',
        'Dictionary description',
        'Item value',
      ]);
      expect(rows.slice(1).map((r) => [r[1], r[5], r[6], r[10]])).toEqual([
        ['acme_only', 'v1', '文本v1', '1'],
      ]);
      // Platform dictionaries stay out of a company's export.
      const all = await call('GET', '/sys/dict/exportXls', acme);
      const whole = new ExcelJS.Workbook();
      await whole.xlsx.load(all.rawPayload as unknown as ArrayBuffer);
      const codes = new Set(
        (whole.worksheets[0]?.getSheetValues().slice(2) as string[][]).map((r) => r[1]),
      );
      expect(codes.has('priority')).toBe(true);
      expect(codes.has('yn')).toBe(false);
    });

    it('imports all or nothing, reporting each bad row and column', async () => {
      const bad = await xlsxBuffer([
        HEADER,
        ['colour', '颜色', 'Colour', '', 'red', '红', 'Red', '', '1', '1'],
        ['colour', '', '', '', 'red', '又红', '', '', '', ''],
        ['9bad', '坏', '', '', 'x', 'x', '', '', '', ''],
        ['colour', '', '', '', 'blue', '', '', '', 'first', '2'],
        ['bin_me2', '', '', '', '', '', '', '', '', ''],
      ]);
      const res = await upload({ ...acme, ...EN }, bad);
      expect(res.statusCode, res.body).toBe(200);
      const result = res.json().result;
      expect(result.applied).toBe(false);
      expect(result.errors).toEqual([
        { row: 3, field: 'itemValue', message: 'repeats row 2' },
        { row: 4, field: 'dictCode', message: expect.stringMatching(/must start with a letter/) },
        { row: 5, field: 'itemText', message: 'is required' },
        { row: 5, field: 'sortOrder', message: 'must be a whole number from 0 to 99999' },
        { row: 5, field: 'status', message: 'must be 1 (enabled) or 0 (disabled)' },
        { row: 6, field: 'dictName', message: 'is required' },
      ]);
      expect(res.json().message).toBe('The file has 6 errors; nothing was imported');
      expect(await items('colour', acme)).toBe(404);
    });

    it('adds dictionaries and adds or updates items by value', async () => {
      const good = await xlsxBuffer([
        HEADER,
        ['colour', '颜色', 'Colour', '', 'red', '红', 'Red', '', '1', '1'],
        ['colour', '', '', '', 'blue', '蓝', 'Blue', '', '0', ''],
        ['acme_only', '', '', '', 'v1', '改过', '', '', '', ''],
        ['acme_only', '', '', '', 'v2', '新的', '', '', '', '0'],
        ['empty_one', '空字典', '', '', '', '', '', '', '', ''],
      ]);
      const res = await upload(acme, good);
      expect(res.json().result).toEqual({
        applied: true,
        dictsCreated: 2,
        dictsUpdated: 0,
        itemsCreated: 3,
        itemsUpdated: 1,
        errors: [],
      });
      expect(await items('colour', { ...acme, ...EN })).toEqual(['blue=Blue', 'red=Red']);
      expect(await items('acme_only', acme)).toEqual(['v1=改过']);
      expect(await items('empty_one', acme)).toEqual([]);
      expect(await items('colour', beta)).toBe(404);
    });

    it('refuses files that are not a dictionary sheet', async () => {
      const csv = await upload(acme, Buffer.from('dictCode,itemValue\nx,y\n'), 'd.csv');
      expect(csv.statusCode).toBe(400);
      const noHeader = await upload(
        { ...acme, ...EN },
        await xlsxBuffer([
          ['a', 'b'],
          ['c', 'd'],
        ]),
      );
      expect(noHeader.statusCode).toBe(400);
      expect(fieldText(noHeader.json())).toMatch(/^file: the first row must be the header/);
      const many = await xlsxBuffer([
        HEADER,
        ...Array.from({ length: 5001 }, (_, i) => [
          'big',
          '大',
          '',
          '',
          `v${i}`,
          't',
          '',
          '',
          '',
          '',
        ]),
      ]);
      const tooMany = await upload({ ...acme, ...EN }, many);
      expect(tooMany.statusCode).toBe(400);
      expect(fieldText(tooMany.json())).toBe('file: at most 5000 rows can be imported');
      expect(await items('big', acme)).toBe(404);
      const huge = await upload(
        acme,
        Buffer.concat([Buffer.from('PK'), Buffer.alloc(3 * 1024 * 1024)]),
      );
      expect(huge.statusCode).toBe(413);
    });

    it('does not let a company import into the platform’s dictionaries', async () => {
      const file = await xlsxBuffer([HEADER, ['priority', '', '', '', 'L', '低', '', '', '', '']]);
      const res = await upload(acme, file);
      // Acme's own `priority` is the one updated.
      expect(res.json().result).toMatchObject({ applied: true, itemsCreated: 1 });
      expect(await items('priority', beta)).toEqual(['L=一般消息', 'M=重要消息', 'H=紧急消息']);
      const acmeRows = await t.db
        .selectFrom('sys_dict')
        .select('company_id')
        .where('dict_code', '=', 'priority')
        .execute();
      expect(acmeRows.map((r) => r.company_id).sort()).toEqual(
        [acmeId, PLATFORM_COMPANY_ID].sort(),
      );
    });
  });
});

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
