import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../platform/auth/tokens.js';
import { newId } from '../../platform/db/ids.js';
import { xlsxBuffer } from '../../platform/sheet/sheet-writer.js';
import { createTestApp, fieldText, type TestContext } from '../../test/app.js';
import { createCompanyAdmin } from '../../test/company-admin.js';
import { client, importForm, type Client } from '../../test/devices.js';
import { insertDevice } from '../../test/company-devices.js';

const ENTITIES = ['goods', 'location', 'vendor'] as const;
const ALL_PERMS = [
  ...ENTITIES.flatMap((e) =>
    ['list', 'add', 'edit', 'delete', 'import', 'export'].map((a) => `base:${e}:${a}`),
  ),
  'system:oss:file:list',
  'system:oss:file:upload',
];
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

interface Company {
  companyId: string;
  userId: string;
  tokenId: string;
  api: Client;
  zh: Client;
}

describe('base data: goods, locations, vendors', () => {
  let t: TestContext;
  let acme: Company;
  let beta: Company;
  let viewer: Client;

  async function company(code: string, perms: string[]): Promise<Company> {
    const username = `${code}admin`;
    const password = `${code[0]!.toUpperCase()}${code}-Pass-123`;
    const { companyId, userId } = await createCompanyAdmin(t, { code, username, password, perms });
    const tokenId = newId();
    const key = `${code}-${newId()}`;
    await t.db
      .insertInto('device_token')
      .values({
        id: tokenId,
        company_id: companyId,
        owner_id: userId,
        code: newId().slice(0, 8).toUpperCase(),
        name: code,
        remark: null,
        token_key: key,
        key_hash: sha256(key),
        auto_register: 0,
        enabled: 1,
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();
    const token = await t.login(username, password);
    return { companyId, userId, tokenId, api: client(t, token), zh: client(t, token, 'zh-CN') };
  }

  /** A device of the company pointing at base data, as the device module would write it. */
  async function device(
    owner: Company,
    refs: { goodsId?: string; locationId?: string; vendorId?: string },
  ): Promise<string> {
    return insertDevice(
      t,
      { companyId: owner.companyId, tokenId: owner.tokenId, ownerId: owner.userId },
      {
        sn: `BD${newId().slice(0, 10)}`,
        name: 'base data device',
        goods_id: refs.goodsId ?? null,
        location_id: refs.locationId ?? null,
        vendor_id: refs.vendorId ?? null,
      },
    );
  }

  const upload = (
    as: Client,
    url: string,
    file: { name: string; content: Buffer },
    fields = {},
  ) => {
    const form = importForm(file, fields);
    return t.app.inject({
      method: 'POST',
      url: `/api${url}`,
      headers: { ...as.headers, ...form.headers },
      payload: form.payload,
    });
  };

  beforeAll(async () => {
    t = await createTestApp();
    acme = await company('acme', ALL_PERMS);
    beta = await company('beta', ALL_PERMS);
    viewer = (await company('gamma', ['base:goods:list', 'base:location:list', 'base:vendor:list']))
      .api;
  });
  afterAll(() => t.close());

  describe('goods', () => {
    let goodsId: string;

    it('adds, searches, edits and reads goods', async () => {
      const added = await acme.api.ok('POST', '/base/goods/add', {
        series: 'R40',
        model: 'R40-LTE',
        hwRevision: 'A1',
        description: 'Industrial router',
      });
      goodsId = added.id;
      expect(added).toMatchObject({
        series: 'R40',
        model: 'R40-LTE',
        hwRevision: 'A1',
        enabled: 1,
      });
      await acme.api.ok('POST', '/base/goods/add', {
        series: 'S27X',
        model: 'S27X-RTU',
        enabled: 0,
      });

      const bySeries = await acme.api.ok('GET', '/base/goods/list?series=R40');
      expect(bySeries.records.map((g: { model: string }) => g.model)).toEqual(['R40-LTE']);
      const byModel = await acme.api.ok('GET', '/base/goods/list?model=rtu');
      expect(byModel.records.map((g: { model: string }) => g.model)).toEqual(['S27X-RTU']);
      const disabled = await acme.api.ok('GET', '/base/goods/list?enabled=0');
      expect(disabled.total).toBe(1);
      const paged = await acme.api.ok(
        'GET',
        '/base/goods/list?pageSize=1&pageNo=2&column=model&order=asc',
      );
      expect(paged).toMatchObject({ total: 2, pages: 2, current: 2 });
      expect(paged.records[0].model).toBe('S27X-RTU');

      const edited = await acme.api.ok('PUT', '/base/goods/edit', {
        id: goodsId,
        series: 'R40',
        model: 'R40-LTE',
        hwRevision: 'A2',
      });
      expect(edited.hwRevision).toBe('A2');
      expect((await acme.api.ok('GET', `/base/goods/queryById?id=${goodsId}`)).hwRevision).toBe(
        'A2',
      );
    });

    it('names the field a bad or conflicting goods row breaks', async () => {
      const bad = await acme.api.post('/base/goods/add', { series: 'X9', model: '' });
      expect(bad.statusCode).toBe(400);
      const fields = bad.json().errors.map((e: { field: string }) => e.field);
      expect(fields).toEqual(expect.arrayContaining(['series', 'model']));

      const twin = await acme.zh.post('/base/goods/add', {
        series: 'R40',
        model: 'R40-LTE',
        hwRevision: 'A2',
      });
      expect(twin.statusCode).toBe(400);
      expect(fieldText(twin.json())).toBe('model: 同型号、同硬件版本的物料已存在');
      // Another revision of the same model is other goods; another company may use the same.
      await acme.api.ok('POST', '/base/goods/add', {
        series: 'R40',
        model: 'R40-LTE',
        hwRevision: 'B1',
      });
      await beta.api.ok('POST', '/base/goods/add', {
        series: 'R40',
        model: 'R40-LTE',
        hwRevision: 'A2',
      });
    });

    it('keeps a PDF of the file library as datasheet and links to it', async () => {
      const pdf = await upload(acme.api, '/sys/oss/file/upload', { name: 'r40.pdf', content: PDF });
      expect(pdf.statusCode, pdf.body).toBe(200);
      const text = await upload(acme.api, '/sys/oss/file/upload', {
        name: 'notes.txt',
        content: Buffer.from('plain notes'),
      });
      const base = { id: goodsId, series: 'R40', model: 'R40-LTE', hwRevision: 'A2' };

      const wrongType = await acme.api.put('/base/goods/edit', {
        ...base,
        datasheetFileId: text.json().result.id,
      });
      expect(wrongType.statusCode).toBe(400);
      expect(wrongType.json().errors[0].field).toBe('datasheetFileId');
      const betaFile = await upload(beta.api, '/sys/oss/file/upload', {
        name: 'b.pdf',
        content: PDF,
      });
      const foreign = await acme.api.put('/base/goods/edit', {
        ...base,
        datasheetFileId: betaFile.json().result.id,
      });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().errors[0].field).toBe('datasheetFileId');

      const saved = await acme.api.ok('PUT', '/base/goods/edit', {
        ...base,
        datasheetFileId: pdf.json().result.id,
      });
      expect(saved.datasheetFileName).toBe('r40.pdf');
      const link = await acme.api.ok('GET', `/base/goods/datasheetUrl?id=${goodsId}`);
      const file = await t.app.inject({ method: 'GET', url: link.url });
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(PDF)).toBe(true);
    });

    it('refuses to delete goods a device references, saying how many', async () => {
      const other = await acme.api.ok('POST', '/base/goods/add', {
        series: 'BL10X',
        model: 'BL101',
      });
      await device(acme, { goodsId });
      await device(acme, { goodsId });
      const refused = await acme.api.del(`/base/goods/delete?id=${goodsId}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toContain('2 device(s) reference these goods');
      // All or none: the free row of the batch stays too.
      const batch = await acme.zh.del(`/base/goods/deleteBatch?ids=${other.id},${goodsId}`);
      expect(batch.statusCode).toBe(409);
      expect(batch.json().message).toContain('2 台设备引用了该物料');
      await acme.api.ok('GET', `/base/goods/queryById?id=${other.id}`);
      await acme.api.ok('DELETE', `/base/goods/delete?id=${other.id}`);
      expect((await acme.api.get(`/base/goods/queryById?id=${other.id}`)).statusCode).toBe(404);
    });

    it('imports the good rows of a sheet, reports the bad one and exports', async () => {
      const file = await xlsxBuffer([
        ['设备系列', '型号', '硬件版本', '描述', '启用(1/0)'],
        ['r40', 'R40-WIFI', '', 'lower-case series is accepted', '1'],
        ['X9', 'NOPE', '', '', '1'],
        ['BL10X', 'BL102', 'C', '', '2'],
        ['R40', 'R40-LTE', 'A2', 'already there', ''],
        ['R40', 'R40-WIFI', '', 'repeated', ''],
      ]);
      const preview = await upload(acme.api, '/base/goods/importExcel', {
        name: 'goods.xlsx',
        content: file,
      });
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json().result).toMatchObject({
        dryRun: true,
        total: 5,
        valid: 2,
        invalid: 3,
        imported: 0,
        existing: 1,
      });
      expect(
        preview
          .json()
          .result.errors.map((e: { row: number; field: string }) => `${e.row}:${e.field}`),
      ).toEqual(['3:series', '4:enabled', '6:model']);
      expect((await acme.api.ok('GET', '/base/goods/list?model=WIFI')).total).toBe(0);

      const done = await upload(
        acme.api,
        '/base/goods/importExcel',
        { name: 'goods.xlsx', content: file },
        { dryRun: 'false' },
      );
      expect(done.json().result).toMatchObject({ imported: 1, existing: 1, invalid: 3 });
      expect((await acme.api.ok('GET', '/base/goods/list?model=WIFI')).records[0].series).toBe(
        'R40',
      );

      const csv = await acme.api.get('/base/goods/exportXls?format=csv&model=R40');
      expect(csv.statusCode).toBe(200);
      expect(csv.headers['content-type']).toContain('text/csv');
      const lines = csv.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(lines[0]).toContain('Series,Model,Hardware revision');
      expect(
        lines
          .slice(1)
          .map((l) => l.split(',')[1])
          .sort(),
      ).toEqual(['R40-LTE', 'R40-LTE', 'R40-WIFI']);
      // Beta's R40-LTE is not in acme's export.
      expect(lines).toHaveLength(4);
    });
  });

  describe('locations', () => {
    let east: string;
    let shanghai: string;
    let cabinet: string;

    it('builds the tree region → site → cabinet with coordinates', async () => {
      east = (await acme.zh.ok('POST', '/base/location/add', { kind: 'region', name: '华东' })).id;
      const site = await acme.zh.ok('POST', '/base/location/add', {
        kind: 'site',
        name: '上海站',
        parentId: east,
        latitude: 31.23,
        longitude: 121.47,
        contactName: '张三',
        contactPhone: '+86 21-5555 0101',
      });
      shanghai = site.id;
      expect(site).toMatchObject({ path: '华东/上海站', latitude: 31.23, longitude: 121.47 });
      cabinet = (
        await acme.zh.ok('POST', '/base/location/add', {
          kind: 'cabinet',
          name: 'A01',
          parentId: shanghai,
        })
      ).id;
      await acme.zh.ok('POST', '/base/location/add', { kind: 'site', name: '独立站' });

      const tree = await acme.api.ok('GET', '/base/location/tree');
      expect(tree.truncated).toBe(false);
      const order = tree.nodes.map((n: { path: string }) => n.path);
      expect(order.indexOf('华东')).toBeLessThan(order.indexOf('华东/上海站'));
      expect(order.indexOf('华东/上海站')).toBeLessThan(order.indexOf('华东/上海站/A01'));
      const children = await acme.api.ok('GET', `/base/location/list?parentId=${east}`);
      expect(
        children.records.map((r: { name: string; hasChildren: boolean }) => [
          r.name,
          r.hasChildren,
        ]),
      ).toEqual([['上海站', true]]);
      const sites = await acme.api.ok('GET', '/base/location/list?kind=site&name=站');
      expect(sites.total).toBe(2);
    });

    it('keeps the tree rules and the coordinate ranges', async () => {
      const cases: [object, string][] = [
        [{ kind: 'cabinet', name: 'top cabinet' }, 'parentId'],
        [{ kind: 'region', name: 'under a site', parentId: shanghai }, 'parentId'],
        [{ kind: 'site', name: 'under a cabinet', parentId: cabinet }, 'parentId'],
        [{ kind: 'site', name: 'half', latitude: 30 }, 'longitude'],
        [{ kind: 'site', name: 'north of north', latitude: 91, longitude: 0 }, 'latitude'],
        [{ kind: 'site', name: 'far east', latitude: 0, longitude: 180.5 }, 'longitude'],
        [{ kind: 'site', name: '上海站', parentId: east }, 'name'],
        [{ kind: 'site', name: 'x', parentId: newId() }, 'parentId'],
      ];
      for (const [body, field] of cases) {
        const res = await acme.api.post('/base/location/add', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(
          res.json().errors.map((e: { field: string }) => e.field),
          JSON.stringify(body),
        ).toContain(field);
      }
      const kindRule = await acme.zh.post('/base/location/add', { kind: 'cabinet', name: 'c' });
      expect(fieldText(kindRule.json())).toBe('parentId: 机柜的上级只能是站点');

      // No cycles: a region cannot move under a region below it.
      const sub = await acme.api.ok('POST', '/base/location/add', {
        kind: 'region',
        name: 'sub',
        parentId: east,
      });
      const cycle = await acme.api.put('/base/location/edit', {
        id: east,
        kind: 'region',
        name: '华东',
        parentId: sub.id,
      });
      expect(cycle.statusCode).toBe(400);
      expect(fieldText(cycle.json())).toContain(
        'parentId: a location cannot be moved under itself',
      );
      // A site with cabinets cannot become a region.
      const demote = await acme.api.put('/base/location/edit', {
        id: shanghai,
        kind: 'region',
        name: '上海站',
        parentId: east,
      });
      expect(demote.statusCode).toBe(400);
      expect(demote.json().errors[0].field).toBe('kind');
      // Another company's location is not a parent here.
      const foreign = await beta.api.post('/base/location/add', {
        kind: 'site',
        name: 'b',
        parentId: east,
      });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().errors[0].field).toBe('parentId');
      await acme.api.ok('DELETE', `/base/location/delete?id=${sub.id}`);
    });

    it('refuses to delete a location with children or devices', async () => {
      const parent = await acme.api.del(`/base/location/delete?id=${east}`);
      expect(parent.statusCode).toBe(409);
      expect(parent.json().message).toContain('has 1 location(s) under it');
      const dev = await device(acme, { locationId: cabinet });
      const used = await acme.zh.del(
        `/base/location/deleteBatch?ids=${east},${shanghai},${cabinet}`,
      );
      expect(used.statusCode).toBe(409);
      expect(used.json().message).toContain('1 台设备位于该位置');
      await t.db.deleteFrom('device').where('id', '=', dev).execute();
      // A parent goes with its children in one batch.
      const temp = await acme.api.ok('POST', '/base/location/add', {
        kind: 'region',
        name: 'temp',
      });
      const tempSite = await acme.api.ok('POST', '/base/location/add', {
        kind: 'site',
        name: 'ts',
        parentId: temp.id,
      });
      await acme.api.ok('DELETE', `/base/location/deleteBatch?ids=${temp.id},${tempSite.id}`);
      expect((await acme.api.get(`/base/location/queryById?id=${tempSite.id}`)).statusCode).toBe(
        404,
      );
    });

    it('imports locations by parent path or name, keeping the good rows', async () => {
      const file = await xlsxBuffer([
        ['上级位置', '类型', '名称', '纬度', '经度'],
        ['', 'region', '华南', '', ''],
        ['华南', '站点', '广州站', '23.13', '113.26'],
        ['华南/广州站', 'cabinet', 'G01', '', ''],
        ['华东 / 上海站', 'cabinet', 'A02', '', ''],
        ['上海站', 'cabinet', 'A01', '', ''],
        ['火星', 'site', '奥林帕斯站', '', ''],
        ['', 'cabinet', '孤柜', '', ''],
        ['华南', 'site', '深圳站', '22.5', ''],
        ['', 'planet', 'X', '', ''],
      ]);
      const res = await upload(
        acme.zh,
        '/base/location/importExcel',
        { name: 'loc.xlsx', content: file },
        { dryRun: 'false' },
      );
      expect(res.statusCode, res.body).toBe(200);
      const result = res.json().result;
      expect(result).toMatchObject({ total: 9, imported: 4, existing: 1, invalid: 4 });
      expect(
        result.errors.map((e: { row: number; field: string }) => `${e.row}:${e.field}`),
      ).toEqual(['7:parent', '8:parent', '9:longitude', '10:kind']);
      expect(result.errors[0].message).toBe('找不到上级位置“火星”');
      const tree = await acme.api.ok('GET', '/base/location/tree');
      const paths = tree.nodes.map((n: { path: string }) => n.path);
      expect(paths).toEqual(expect.arrayContaining(['华南/广州站/G01', '华东/上海站/A02']));
      const gz = tree.nodes.find((n: { path: string }) => n.path === '华南/广州站');
      expect([gz.latitude, gz.longitude]).toEqual([23.13, 113.26]);

      const xlsx = await acme.zh.get('/base/location/exportXls?kind=cabinet');
      expect(xlsx.statusCode).toBe(200);
      const book = new ExcelJS.Workbook();
      await book.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
      const rows = book.worksheets[0]!.getSheetValues().slice(2) as unknown[][];
      expect(rows.map((r) => `${String(r[1])}|${String(r[2])}|${String(r[3])}`).sort()).toEqual([
        '华东/上海站|机柜|A01',
        '华东/上海站|机柜|A02',
        '华南/广州站|机柜|G01',
      ]);
    });
  });

  describe('vendors', () => {
    it('adds vendors with contract dates in order and unique names', async () => {
      const v = await acme.api.ok('POST', '/base/vendor/add', {
        name: 'Acme Install',
        kind: 'installer',
        contactEmail: 'ops@acme.example',
        contractNo: 'C-2026-01',
        contractStart: '2026-01-01',
        contractEnd: '2027-12-31',
        warrantyEnd: '2028-06-30',
      });
      expect(v).toMatchObject({ kind: 'installer', contractEnd: '2027-12-31' });
      const early = await acme.zh.post('/base/vendor/add', {
        name: 'Early',
        kind: 'carrier',
        contractStart: '2026-05-01',
        contractEnd: '2026-04-30',
      });
      expect(early.statusCode).toBe(400);
      expect(early.json().errors).toEqual([
        { field: 'contractEnd', message: '不能早于合同开始日期' },
      ]);
      const bad = await acme.api.post('/base/vendor/add', {
        name: 'Bad',
        kind: 'bank',
        contactEmail: 'nope',
        contractStart: '2026-02-30',
      });
      expect(
        bad
          .json()
          .errors.map((e: { field: string }) => e.field)
          .sort(),
      ).toEqual(['contactEmail', 'contractStart', 'kind']);
      const twin = await acme.api.post('/base/vendor/add', {
        name: 'Acme Install',
        kind: 'supplier',
      });
      expect(twin.statusCode).toBe(400);
      expect(twin.json().errors[0].field).toBe('name');
      const kinds = await acme.api.ok('GET', '/base/vendor/list?kind=installer&name=install');
      expect(kinds.total).toBe(1);

      await device(acme, { vendorId: v.id });
      const refused = await acme.api.del(`/base/vendor/delete?id=${v.id}`);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().message).toContain('1 device(s) reference this vendor');
    });

    it('imports vendors, reporting a bad kind and dates by row', async () => {
      const csv = Buffer.from(
        '\uFEFFname,kind,contractStart,contractEnd\n' +
          'Fast Carrier,carrier,2026-01-01,2026-12-31\n' +
          'Odd,bank,,\n' +
          'Late,维保商,2026-06-01,2026-01-01\n' +
          'Acme Install,installer,,\n',
      );
      const res = await upload(
        acme.api,
        '/base/vendor/importExcel',
        { name: 'v.csv', content: csv },
        { dryRun: 'false' },
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result).toMatchObject({ imported: 1, existing: 1, invalid: 2 });
      expect(
        res.json().result.errors.map((e: { row: number; field: string }) => `${e.row}:${e.field}`),
      ).toEqual(['3:kind', '4:contractEnd']);
      const noHeader = await upload(acme.api, '/base/vendor/importExcel', {
        name: 'v.csv',
        content: Buffer.from('foo,bar\n1,2\n'),
      });
      expect(noHeader.statusCode).toBe(400);
      expect(fieldText(noHeader.json())).toContain('Name, Kind');
    });
  });

  describe('company isolation and permissions', () => {
    it("answers 404 for another company's rows", async () => {
      const g = await acme.api.ok('POST', '/base/goods/add', { series: 'R40', model: 'ISO-1' });
      const l = await acme.api.ok('POST', '/base/location/add', { kind: 'region', name: 'ISO' });
      const v = await acme.api.ok('POST', '/base/vendor/add', {
        name: 'ISO vendor',
        kind: 'supplier',
      });
      for (const [entity, id] of [
        ['goods', g.id],
        ['location', l.id],
        ['vendor', v.id],
      ] as const) {
        expect((await beta.api.get(`/base/${entity}/queryById?id=${id}`)).statusCode).toBe(404);
        expect((await beta.api.del(`/base/${entity}/delete?id=${id}`)).statusCode).toBe(404);
        expect((await beta.api.del(`/base/${entity}/deleteBatch?ids=${id}`)).statusCode).toBe(404);
        const list = await beta.api.ok('GET', `/base/${entity}/list?pageSize=100`);
        expect(list.records.map((r: { id: string }) => r.id)).not.toContain(id);
      }
      const edits: [string, object][] = [
        ['goods', { id: g.id, series: 'R40', model: 'stolen' }],
        ['location', { id: l.id, kind: 'region', name: 'stolen' }],
        ['vendor', { id: v.id, name: 'stolen', kind: 'supplier' }],
      ];
      for (const [entity, body] of edits) {
        expect((await beta.api.put(`/base/${entity}/edit`, body)).statusCode).toBe(404);
      }
      expect((await beta.api.get(`/base/goods/datasheetUrl?id=${g.id}`)).statusCode).toBe(404);
      expect((await beta.api.ok('GET', '/base/location/tree')).nodes).toEqual([]);
    });

    it('refuses what the caller has no permission code for', async () => {
      expect((await viewer.get('/base/goods/list')).statusCode).toBe(200);
      expect((await viewer.get('/base/location/tree')).statusCode).toBe(200);
      const denied = [
        await viewer.post('/base/goods/add', { series: 'R40', model: 'V' }),
        await viewer.post('/base/location/add', { kind: 'region', name: 'V' }),
        await viewer.put('/base/vendor/edit', { id: newId(), name: 'V', kind: 'supplier' }),
        await viewer.del(`/base/vendor/delete?id=${newId()}`),
        await viewer.get('/base/goods/exportXls'),
      ];
      expect(denied.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403]);
      const imp = await upload(viewer, '/base/location/importExcel', {
        name: 'x.csv',
        content: Buffer.from('a\n'),
      });
      expect(imp.statusCode).toBe(403);
    });
  });
});
