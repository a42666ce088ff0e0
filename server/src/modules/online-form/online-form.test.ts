import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../platform/db/ids.js';
import { xlsxBuffer } from '../../platform/sheet/sheet-writer.js';
import {
  ADMIN_PASSWORD,
  authHeaders,
  createTestApp,
  fieldText,
  type TestContext,
} from '../../test/app.js';
import { companyWithToken, insertDevice } from '../../test/company-devices.js';
import { createCompanyAdmin, createRole } from '../../test/company-admin.js';
import { importForm } from '../../test/devices.js';

type Headers = Record<string, string>;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const FORM_PERMS = [
  'online:form:list',
  'online:form:add',
  'online:form:edit',
  'online:form:delete',
  'online:form:publish',
  'account:role:authorize',
  'account:role:list',
];

/** A visit form using every kind of rule the server checks. */
const visitForm = (code = 'visit') => ({
  code,
  name: '巡检记录',
  nameEn: 'Maintenance visits',
  fields: [
    {
      key: 'ticket',
      type: 'text',
      label: '工单号',
      labelEn: 'Ticket',
      required: true,
      unique: true,
      searchable: true,
      sortable: true,
      pattern: '^T-[0-9]{4}$',
      patternHint: 'T-0000',
    },
    {
      key: 'hours',
      type: 'number',
      label: '工时',
      labelEn: 'Hours',
      min: 0,
      max: 24,
      precision: 1,
      sortable: true,
      searchable: true,
    },
    { key: 'visit_day', type: 'date', label: '日期', labelEn: 'Day', defaultValue: '2026-01-01' },
    { key: 'done', type: 'switch', label: '完成', labelEn: 'Done', searchable: true },
    {
      key: 'shift',
      type: 'select',
      label: '班次',
      labelEn: 'Shift',
      dictCode: 'of_shift',
      searchable: true,
    },
    { key: 'device', type: 'device', label: '设备', labelEn: 'Device', searchable: true },
    { key: 'site', type: 'location', label: '站点', labelEn: 'Site' },
    {
      key: 'note',
      type: 'textarea',
      label: '备注',
      labelEn: 'Note',
      maxLength: 50,
      searchable: true,
    },
  ],
});

describe('online forms', () => {
  let t: TestContext;
  let acme: Headers;
  let beta: Headers;
  let clerk: Headers;
  let acmeId: string;
  let betaId: string;
  let clerkRole: string;
  let acmeDevice: string;
  let betaDevice: string;
  let acmeSite: string;
  let formId: string;

  const call = (method: Method, url: string, headers: Headers, payload?: object) =>
    t.app.inject({ method, url: `/api${url}`, headers, ...(payload ? { payload } : {}) });
  const ok = async (method: Method, url: string, headers: Headers, payload?: object) => {
    const res = await call(method, url, headers, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(200);
    return res.json().result;
  };
  const menuOf = async (headers: Headers) => {
    const res = await call('GET', '/sys/permission/getUserPermissionByToken', headers);
    const body = res.json().result as {
      menu: {
        path: string;
        children?: { path: string; component: string; meta: { title: string } }[];
      }[];
      auth: { action: string }[];
      allAuth: { action: string }[];
    };
    return body;
  };

  const addDevice = async (companyId: string, sn: string) => {
    const { token } = await companyWithToken(t, `d${sn.toLowerCase()}`);
    const tokenRow = await t.db
      .selectFrom('device_token')
      .select(['id', 'owner_id'])
      .where('code', '=', token.code)
      .executeTakeFirstOrThrow();
    return insertDevice(
      t,
      { companyId, tokenId: tokenRow.id, ownerId: tokenRow.owner_id },
      { sn, name: `Device ${sn}` },
    );
  };

  beforeAll(async () => {
    t = await createTestApp(process.env.OF_DEBUG ? { app: { logger: { level: 'error' } } } : {});
    const admin = authHeaders(await t.login('admin', ADMIN_PASSWORD));
    acmeId = (
      await createCompanyAdmin(t, {
        code: 'acme',
        username: 'acmeadmin',
        password: 'Acme-Pass-123',
        perms: FORM_PERMS,
      })
    ).companyId;
    acme = authHeaders(await t.login('acmeadmin', 'Acme-Pass-123'));
    betaId = (
      await createCompanyAdmin(t, {
        code: 'beta',
        username: 'betaadmin',
        password: 'Beta-Pass-123',
        perms: FORM_PERMS,
      })
    ).companyId;
    beta = authHeaders(await t.login('betaadmin', 'Beta-Pass-123'));
    clerkRole = await createRole(t, acmeId, 'clerk', []);
    await t.createUser({
      username: 'acmeclerk',
      password: 'Clerk-Pass-123',
      companyId: acmeId,
      roleIds: [clerkRole],
    });
    clerk = authHeaders(await t.login('acmeclerk', 'Clerk-Pass-123'));

    // A platform dictionary every company reads for the select field.
    const dict = await ok('POST', '/sys/dict/add', admin, {
      dictName: '班次',
      dictCode: 'of_shift',
    });
    for (const v of ['day', 'night']) {
      await ok('POST', '/sys/dictItem/add', admin, {
        dictId: dict.id,
        itemValue: v,
        itemText: v === 'day' ? '白班' : '夜班',
        itemTextEn: v === 'day' ? 'Day shift' : 'Night shift',
      });
    }
    acmeDevice = await addDevice(acmeId, 'ACME0001');
    betaDevice = await addDevice(betaId, 'BETA0001');
    acmeSite = newId();
    await t.db
      .insertInto('base_location')
      .values({
        id: acmeSite,
        company_id: acmeId,
        parent_id: null,
        kind: 'site',
        name: '一号站',
        address: null,
        latitude: null,
        longitude: null,
        contact_name: null,
        contact_phone: null,
        sort_no: 0,
        create_by: null,
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();
  });
  afterAll(() => t.close());

  it('refuses a bad definition, naming the field', async () => {
    const bad = async (form: object) =>
      fieldText(
        (
          await call('POST', '/online/form/add', { ...acme, 'accept-language': 'en-US' }, form)
        ).json(),
      );
    const base = visitForm();
    expect(await bad({ ...base, code: 'Visit' })).toMatch(/^code: must be 2-32 lowercase/);
    expect(await bad({ ...base, code: 'form' })).toBe('code: is reserved');
    expect(
      await bad({ ...base, fields: [base.fields[0], { ...base.fields[1], key: 'ticket' }] }),
    ).toBe('fields.1.key: must be unique in the form');
    expect(
      await bad({ ...base, fields: [{ key: 'n', type: 'number', label: 'N', min: 5, max: 1 }] }),
    ).toBe('fields.0.max: must not be less than the minimum');
    expect(
      await bad({ ...base, fields: [{ key: 'n', type: 'textarea', label: 'N', sortable: true }] }),
    ).toBe('fields.0.sortable: not available for this type');
    expect(
      await bad({ ...base, fields: [{ key: 'x', type: 'text', label: 'X', pattern: '(a)\\1' }] }),
    ).toMatch(/^fields\.0\.pattern: not a valid RE2 regular expression/);
    expect(
      await bad({ ...base, fields: [{ key: 's', type: 'select', label: 'S', dictCode: 'nope' }] }),
    ).toMatch(/^fields\.0\.dictCode: dictionary nope does not exist/);
    // Definitions are data: a field cannot carry SQL or script keys the contract does not know.
    expect(
      await bad({ ...base, fields: [{ key: 'x', type: 'text', label: 'X', sql: 'drop table x' }] }),
    ).toMatch(/sql is not an allowed field/);
  });

  it('publishes a form into the company’s menu, granted to its admin only', async () => {
    formId = (await ok('POST', '/online/form/add', acme, visitForm())).id;
    // A draft has no page and its records cannot be reached.
    expect((await call('GET', '/online/data/visit/list', acme)).statusCode).toBe(404);
    await ok('PUT', '/online/form/publish', acme, { id: formId });

    const menu = await menuOf(acme);
    const online = menu.menu.find((m) => m.path === '/online');
    expect(online?.children?.map((c) => [c.path, c.component, c.meta.title])).toContainEqual([
      '/online/data/visit',
      'online/FormRecords',
      '巡检记录',
    ]);
    expect(menu.auth.map((a) => a.action)).toEqual(
      expect.arrayContaining(['online:visit:list', 'online:visit:add', 'online:visit:export']),
    );

    // Another company neither sees the rows, nor lists them among what exists or can be granted.
    const betaMenu = await menuOf(beta);
    expect(JSON.stringify(betaMenu)).not.toContain('online:visit');
    const tree = await ok('GET', '/sys/permission/queryTreeList', beta);
    expect(JSON.stringify(tree)).not.toContain('online:visit');
    expect(JSON.stringify(await ok('GET', '/sys/permission/queryTreeList', acme))).toContain(
      'online:visit:list',
    );
  });

  it('checks the form’s own codes: 403 without them, granted through a role', async () => {
    expect((await call('GET', '/online/data/visit/list', clerk)).statusCode).toBe(403);
    expect((await call('POST', '/online/data/visit/add', clerk, { data: {} })).statusCode).toBe(
      403,
    );

    const page = await t.db
      .selectFrom('sys_permission')
      .select(['id', 'perms'])
      .where('company_id', '=', acmeId)
      .execute();
    const listRow = page.find((p) => p.perms === 'online:visit:list')!;
    // Beta's administrator cannot grant Acme's rows to a role of Beta.
    const betaRole = await createRole(t, betaId, 'betaclerk', []);
    const refused = await call('POST', '/sys/permission/saveRolePermission', beta, {
      roleId: betaRole,
      permissionIds: [listRow.id],
    });
    // Acme's rows are unknown in Beta's catalogue.
    expect(refused.statusCode).toBe(400);

    await ok('POST', '/sys/permission/saveRolePermission', acme, {
      roleId: clerkRole,
      permissionIds: [listRow.id],
    });
    expect((await call('GET', '/online/data/visit/list', clerk)).statusCode).toBe(200);
    expect((await call('POST', '/online/data/visit/add', clerk, { data: {} })).statusCode).toBe(
      403,
    );
    // Import writes records: it needs the add code, checked before the upload is read.
    const upload = importForm({ name: 'v.csv', content: Buffer.from('工单号\nT-0500\n') }, {});
    const imported = await t.app.inject({
      method: 'POST',
      url: '/api/online/data/visit/importExcel?dryRun=false',
      headers: { ...clerk, ...upload.headers },
      payload: upload.payload,
    });
    expect(imported.statusCode).toBe(403);
    const meta = await ok('GET', '/online/data/visit/meta', clerk);
    expect(meta.access).toEqual({ add: false, edit: false, delete: false, export: false });
  });

  it('validates records by type against the definition, server-side', async () => {
    const en = { ...acme, 'accept-language': 'en-US' };
    const refuse = async (data: object) => {
      const res = await call('POST', '/online/data/visit/add', en, { data });
      expect(res.statusCode, res.body).toBe(400);
      return fieldText(res.json());
    };
    expect(await refuse({})).toBe('data.ticket: Ticket is required');
    expect(await refuse({ ticket: 'X-1' })).toBe(
      'data.ticket: Ticket does not match the required format (T-0000)',
    );
    expect(await refuse({ ticket: 'T-0001', hours: 25 })).toBe(
      'data.hours: Hours must be at most 24',
    );
    expect(await refuse({ ticket: 'T-0001', hours: 1.25 })).toBe(
      'data.hours: Hours has too many decimal places',
    );
    expect(await refuse({ ticket: 'T-0001', visit_day: '2026-02-30' })).toBe(
      'data.visit_day: Day must be a date such as 2026-01-31',
    );
    expect(await refuse({ ticket: 'T-0001', shift: 'evening' })).toBe(
      'data.shift: Shift is not an option of its dictionary',
    );
    expect(await refuse({ ticket: 'T-0001', device: betaDevice })).toBe(
      'data.device: Device is not a device of the company',
    );
    expect(await refuse({ ticket: 'T-0001', site: newId() })).toBe(
      'data.site: Site is not a location of the company',
    );
    expect(await refuse({ ticket: 'T-0001', extra: 1 })).toBe(
      'data.extra: extra is not an allowed field',
    );

    const added = await ok('POST', '/online/data/visit/add', acme, {
      data: {
        ticket: 'T-0001',
        hours: 2.5,
        shift: 'night',
        device: acmeDevice,
        site: acmeSite,
        done: true,
      },
    });
    // Defaults apply on add; references are shown by name.
    expect(added.data).toMatchObject({
      ticket: 'T-0001',
      visit_day: '2026-01-01',
      device: acmeDevice,
    });
    expect(added.display).toEqual({
      shift: '夜班',
      device: 'ACME0001 / Device ACME0001',
      site: '一号站',
    });
    expect(await refuse({ ticket: 'T-0001' })).toBe(
      'data.ticket: Ticket already has this value in another record',
    );
    // Chinese messages name the field by its Chinese label.
    const zh = await call('POST', '/online/data/visit/add', acme, {
      data: { ticket: 'T-0002', hours: -1 },
    });
    expect(fieldText(zh.json())).toBe('data.hours: 工时不能小于 0');
  });

  it('lists with search, sort and paging, and keeps a history', async () => {
    for (let i = 2; i <= 12; i++) {
      t.clock.advance(1000);
      await ok('POST', '/online/data/visit/add', acme, {
        data: {
          ticket: `T-${String(i).padStart(4, '0')}`,
          hours: i % 5,
          shift: i % 2 ? 'day' : 'night',
          note: `note ${i}`,
        },
      });
    }
    const list = async (query: string) =>
      ok('GET', `/online/data/visit/list?${query}`, acme) as Promise<{
        total: number;
        records: { data: Record<string, unknown> }[];
      }>;
    const first = await list('pageNo=1&pageSize=5');
    expect(first.total).toBe(12);
    expect(first.records.map((r) => r.data.ticket)).toEqual([
      'T-0012',
      'T-0011',
      'T-0010',
      'T-0009',
      'T-0008',
    ]);
    const byHours = await list('column=hours&order=asc&pageSize=3');
    expect(byHours.records.map((r) => r.data.hours)).toEqual([0, 0, 1]);
    const night = await list(
      `search=${encodeURIComponent(JSON.stringify({ shift: 'night' }))}&pageSize=100`,
    );
    expect(night.total).toBe(7);
    const range = await list(
      `search=${encodeURIComponent(JSON.stringify({ hours: { from: 3, to: 4 }, note: 'note 9' }))}`,
    );
    expect(range.records.map((r) => r.data.ticket)).toEqual(['T-0009']);
    const badSearch = await call(
      'GET',
      `/online/data/visit/list?search=${encodeURIComponent('{"site":"x"}')}`,
      acme,
    );
    expect(badSearch.statusCode).toBe(400);
    expect(fieldText(badSearch.json())).toMatch(/^search\.site/);
    expect((await call('GET', '/online/data/visit/list?column=note', acme)).statusCode).toBe(400);

    const target = (await list('pageSize=1')).records[0] as unknown as { id: string };
    t.clock.advance(1000);
    await ok('PUT', '/online/data/visit/edit', acme, {
      id: target.id,
      data: { ticket: 'T-0012', hours: 3 },
    });
    const history = await ok('GET', `/online/data/visit/history?recordId=${target.id}`, acme);
    expect(history.records.map((h: { action: string }) => h.action)).toEqual(['edit', 'add']);
    expect(history.records[0].changes).toContainEqual({
      key: 'hours',
      label: '工时',
      from: 2,
      to: 3,
    });
  });

  it('keeps records readable when the definition changes', async () => {
    const form = await ok('GET', `/online/form/queryById?id=${formId}`, acme);
    const fields = form.fields
      .filter((f: { key: string }) => f.key !== 'note')
      .map((f: { key: string; type: string }) =>
        f.key === 'hours' ? { key: 'hours', type: 'text', label: '工时', sortable: true } : f,
      );
    await ok('PUT', '/online/form/edit', acme, {
      ...form,
      fields,
      id: formId,
      records: undefined,
      status: undefined,
      version: undefined,
      createBy: undefined,
      createTime: undefined,
      updateTime: undefined,
      publishTime: undefined,
    });
    const page = await ok('GET', '/online/data/visit/list?pageSize=2', acme);
    // T-0011 was never edited: it still holds its note, which the form no longer shows.
    const row = page.records[1];
    expect(row.data.ticket).toBe('T-0011');
    expect(row.data.note).toBeUndefined();
    expect(row.stale).toEqual(['hours']);
    expect(row.display.hours).toBe('1');
    // Editing applies the fields as defined now, and keeps the removed field's value.
    const edited = await ok('PUT', '/online/data/visit/edit', acme, {
      id: row.id,
      data: { ticket: 'T-0011', hours: 'three' },
    });
    expect(edited.data.hours).toBe('three');
    const stored = await t.db
      .selectFrom('online_form_record')
      .select('data')
      .where('id', '=', row.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.data)).toMatchObject({ note: 'note 11', hours: 'three' });
  });

  it('imports good rows, reports bad ones by row and column, and exports', async () => {
    const sheet = await xlsxBuffer([
      ['工单号', '班次', '设备', '站点'],
      ['T-0100', '白班', 'ACME0001', '一号站'],
      ['bad', '夜班', '', ''],
      ['T-0101', 'Night shift', 'BETA0001', ''],
      ['T-0102', '', '', ''],
    ]);
    const upload = (dryRun: boolean) => {
      const form = importForm({ name: 'v.xlsx', content: sheet }, { dryRun: String(dryRun) });
      return t.app.inject({
        method: 'POST',
        url: '/api/online/data/visit/importExcel',
        headers: { ...acme, 'accept-language': 'en-US', ...form.headers },
        payload: form.payload,
      });
    };
    const preview = (await upload(true)).json().result;
    expect(preview).toMatchObject({ dryRun: true, total: 4, valid: 2, invalid: 2, imported: 0 });
    expect(preview.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [3, '工单号'],
      [4, '设备'],
    ]);
    const applied = (await upload(false)).json().result;
    expect(applied.imported).toBe(2);
    const imported = await ok(
      'GET',
      `/online/data/visit/list?search=${encodeURIComponent(JSON.stringify({ device: acmeDevice }))}`,
      acme,
    );
    expect(imported.records.map((r: { data: { ticket: string } }) => r.data.ticket)).toContain(
      'T-0100',
    );
  });

  it('exports with the fields’ labels as columns', async () => {
    const res = await call(
      'GET',
      '/online/data/visit/exportXls?format=xlsx&column=createTime&order=asc',
      acme,
    );
    expect(res.statusCode, res.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const rows = book.worksheets[0]!.getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0]!.slice(1)).toEqual(['工单号', '工时', '日期', '完成', '班次', '设备', '站点']);
    const t100 = rows.find((r) => r[1] === 'T-0100')!;
    expect(t100.slice(5, 8)).toEqual(['白班', 'ACME0001', '一号站']);
  });

  it('keeps another company out: 404 on its records and definitions', async () => {
    expect((await call('GET', '/online/data/visit/list', beta)).statusCode).toBe(404);
    expect((await call('GET', `/online/form/queryById?id=${formId}`, beta)).statusCode).toBe(404);
    // Beta may use the same code for its own form, with its own rows.
    const betaForm = await ok('POST', '/online/form/add', beta, visitForm());
    await ok('PUT', '/online/form/publish', beta, { id: betaForm.id });
    expect((await ok('GET', '/online/data/visit/list', beta)).total).toBe(0);
    // Acme's record ids mean nothing in Beta's form of the same code.
    const acmeRecord = (await ok('GET', '/online/data/visit/list?pageSize=1', acme)).records[0];
    expect(
      (await call('GET', `/online/data/visit/queryById?id=${acmeRecord.id}`, beta)).statusCode,
    ).toBe(404);
    expect(
      (
        await call('PUT', '/online/data/visit/edit', beta, {
          id: acmeRecord.id,
          data: { ticket: 'T-9999' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await call('DELETE', '/online/data/visit/deleteBatch', beta, { ids: [acmeRecord.id] }))
        .statusCode,
    ).toBe(404);
    expect((await ok('GET', '/online/data/visit/list', acme)).total).toBeGreaterThan(10);
  });

  it('unpublishes: the menu rows and grants go, records stay; delete waits for no records', async () => {
    await ok('PUT', '/online/form/unpublish', acme, { id: formId });
    expect(JSON.stringify(await menuOf(acme))).not.toContain('online:visit');
    expect((await call('GET', '/online/data/visit/list', acme)).statusCode).toBe(404);
    expect(
      await t.db
        .selectFrom('sys_role_permission')
        .select('role_id')
        .where('role_id', '=', clerkRole)
        .execute(),
    ).toEqual([]);
    const refused = await call('DELETE', `/online/form/delete?id=${formId}`, acme);
    expect(refused.statusCode).toBe(400);
    await ok('PUT', '/online/form/publish', acme, { id: formId });
    expect((await ok('GET', '/online/data/visit/list', acme)).total).toBeGreaterThan(10);
  });
});
