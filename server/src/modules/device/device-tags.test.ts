import type { TDevice, TDeviceLog } from '@blrms/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { newId } from '../../platform/db/ids.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext, fieldText } from '../../test/app.js';
import { client, createRole, importForm, type Client } from '../../test/devices.js';

/*
 * Issue 20 on the device side: goods, location and vendor references (checked against the
 * caller's company), the location subtree filter, free tags (form, bulk, import, counts, filter)
 * and their device log entries.
 */

describe('device references and tags', () => {
  let t: TestContext;
  let admin: Client;
  let bossB: Client;
  let tokenId: string;
  let companyB: string;
  /** The platform company's base data; `B` rows belong to company B. */
  const ids = {
    goods: '',
    goods2: '',
    region: '',
    site: '',
    cabinet: '',
    otherSite: '',
    vendor: '',
    goodsB: '',
    locationB: '',
    vendorB: '',
  };

  async function goods(companyId: string, model: string, hwRevision = '') {
    const id = newId();
    await t.db
      .insertInto('base_goods')
      .values({
        id,
        company_id: companyId,
        series: 'R40',
        model,
        hw_revision: hwRevision,
        description: null,
        datasheet_file_id: null,
        enabled: 1,
        create_by: 'test',
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();
    return id;
  }

  async function location(companyId: string, name: string, kind: string, parentId?: string) {
    const id = newId();
    await t.db
      .insertInto('base_location')
      .values({
        id,
        company_id: companyId,
        parent_id: parentId ?? null,
        kind,
        name,
        address: null,
        latitude: null,
        longitude: null,
        contact_name: null,
        contact_phone: null,
        sort_no: 0,
        create_by: 'test',
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();
    return id;
  }

  async function vendor(companyId: string, name: string) {
    const id = newId();
    await t.db
      .insertInto('base_vendor')
      .values({
        id,
        company_id: companyId,
        name,
        kind: 'supplier',
        contact_name: null,
        contact_phone: null,
        contact_email: null,
        contract_no: null,
        contract_start: null,
        contract_end: null,
        warranty_end: null,
        remark: null,
        create_by: 'test',
        create_time: t.clock.now,
        update_time: null,
      })
      .execute();
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    companyB = await t.createCompany('tags-b');
    await t.createUser({
      username: 'tagbossb',
      password: 'Boss-B-Pass-1',
      companyId: companyB,
      roleIds: [ADMIN_ROLE_ID],
    });
    bossB = client(t, await t.login('tagbossb', 'Boss-B-Pass-1'));
    tokenId = (await admin.ok('POST', '/device/token/add', { name: 'tags' })).id;
    ids.goods = await goods(PLATFORM_COMPANY_ID, 'R40-4G');
    ids.goods2 = await goods(PLATFORM_COMPANY_ID, 'R40-5G');
    ids.region = await location(PLATFORM_COMPANY_ID, '华东', 'region');
    ids.site = await location(PLATFORM_COMPANY_ID, '上海站', 'site', ids.region);
    ids.cabinet = await location(PLATFORM_COMPANY_ID, '柜1', 'cabinet', ids.site);
    ids.otherSite = await location(PLATFORM_COMPANY_ID, '杭州站', 'site');
    ids.vendor = await vendor(PLATFORM_COMPANY_ID, 'Acme Supply');
    ids.goodsB = await goods(companyB, 'B-MODEL');
    ids.locationB = await location(companyB, 'B site', 'site');
    ids.vendorB = await vendor(companyB, 'B vendor');
  });
  afterAll(() => t.close());

  const add = (sn: string, extra: object = {}): Promise<TDevice> =>
    admin.ok('POST', '/device/device/add', {
      tokenId,
      sn,
      name: `name-${sn}`,
      series: 'R40',
      ...extra,
    });

  const listSns = async (as: Client, query: string) => {
    const page = await as.ok(
      'GET',
      `/device/device/list?pageSize=100&column=sn&order=asc&${query}`,
    );
    return (page.records as TDevice[]).map((d) => d.sn);
  };

  const tagLogs = async (deviceId: string) =>
    (
      await admin.ok(
        'GET',
        `/device/log/list?deviceId=${deviceId}&subject=Tags&order=asc&pageSize=100`,
      )
    ).records as TDeviceLog[];

  describe('references', () => {
    it('keeps goods, location and vendor with their names and the location’s path', async () => {
      const device = await add('REF-1', {
        goodsId: ids.goods,
        locationId: ids.cabinet,
        vendorId: ids.vendor,
      });
      expect(device).toMatchObject({
        goodsId: ids.goods,
        goodsModel: 'R40-4G',
        locationId: ids.cabinet,
        locationPath: '华东 / 上海站 / 柜1',
        vendorId: ids.vendor,
        vendorName: 'Acme Supply',
      });
      const [listed] = (await admin.ok('GET', '/device/device/list?sn=REF-1')).records;
      expect(listed).toEqual(device);

      const edited = await admin.ok('PUT', '/device/device/edit', {
        id: device.id,
        name: device.name,
        series: 'R40',
        enabled: true,
        goodsId: ids.goods2,
        locationId: null,
      });
      expect(edited).toMatchObject({
        goodsModel: 'R40-5G',
        locationId: null,
        locationPath: null,
        vendorName: 'Acme Supply',
      });
      // The log tells what changed, and only that.
      const [log] = (await admin.ok('GET', `/device/log/list?deviceId=${device.id}&subject=edited`))
        .records as TDeviceLog[];
      expect(JSON.parse(log!.content)).toEqual({
        goodsId: { from: ids.goods, to: ids.goods2 },
        locationId: { from: ids.cabinet, to: null },
      });
    });

    it('refuses another company’s goods, location or vendor exactly like a missing one', async () => {
      const cases = [
        ['goodsId', ids.goodsB, 'goodsId: goods not found'],
        ['locationId', ids.locationB, 'locationId: location not found'],
        ['vendorId', ids.vendorB, 'vendorId: vendor not found'],
      ] as const;
      for (const [field, otherCompany, text] of cases) {
        const foreign = await admin.post('/device/device/add', {
          tokenId,
          sn: 'REF-BAD',
          name: 'bad',
          series: 'R40',
          [field]: otherCompany,
        });
        const missing = await admin.post('/device/device/add', {
          tokenId,
          sn: 'REF-BAD',
          name: 'bad',
          series: 'R40',
          [field]: newId(),
        });
        expect(foreign.statusCode).toBe(400);
        expect(missing.statusCode).toBe(400);
        expect(fieldText(foreign.json())).toBe(text);
        expect(fieldText(missing.json())).toBe(text);
      }
      const device = await add('REF-2');
      const edit = await admin.put('/device/device/edit', {
        id: device.id,
        name: device.name,
        series: 'R40',
        enabled: true,
        vendorId: ids.vendorB,
      });
      expect(edit.statusCode).toBe(400);
      expect(fieldText(edit.json())).toBe('vendorId: vendor not found');
      expect((await admin.ok('GET', `/device/device/queryById?id=${device.id}`)).vendorId).toBe(
        null,
      );
      expect((await admin.ok('GET', '/device/device/list?sn=REF-BAD')).total).toBe(0);
    });

    it('filters by goods, vendor and location, a location taking in the ones under it', async () => {
      await add('LOC-CAB', { locationId: ids.cabinet, goodsId: ids.goods });
      await add('LOC-SITE', { locationId: ids.site, vendorId: ids.vendor });
      await add('LOC-OTHER', { locationId: ids.otherSite, goodsId: ids.goods });
      expect(await listSns(admin, `sn=LOC-&locationId=${ids.region}`)).toEqual([
        'LOC-CAB',
        'LOC-SITE',
      ]);
      expect(await listSns(admin, `sn=LOC-&locationId=${ids.site}`)).toEqual([
        'LOC-CAB',
        'LOC-SITE',
      ]);
      expect(await listSns(admin, `sn=LOC-&locationId=${ids.cabinet}`)).toEqual(['LOC-CAB']);
      expect(await listSns(admin, `locationId=${ids.otherSite}`)).toEqual(['LOC-OTHER']);
      expect(await listSns(admin, `sn=LOC-&goodsId=${ids.goods}`)).toEqual([
        'LOC-CAB',
        'LOC-OTHER',
      ]);
      expect(await listSns(admin, `sn=LOC-&vendorId=${ids.vendor}`)).toEqual(['LOC-SITE']);
      // Without a text filter the total comes another way: it must agree.
      const page = await admin.ok('GET', `/device/device/list?locationId=${ids.region}`);
      expect(page.total).toBe(page.records.length);
      expect(page.total).toBeGreaterThanOrEqual(2);
      // Another company's location finds nothing of this one, and this one's nothing of B's.
      expect(await listSns(admin, `locationId=${ids.locationB}`)).toEqual([]);
      expect(await listSns(bossB, `locationId=${ids.region}`)).toEqual([]);
    });
  });

  describe('tags', () => {
    it('keeps a device’s tags trimmed, without repeats, sorted; the edit form replaces them', async () => {
      const device = await add('TAG-FORM', { tags: [' 北区 ', 'pilot', 'pilot'] });
      expect(device.tags).toEqual(['pilot', '北区']);
      const edited = await admin.ok('PUT', '/device/device/edit', {
        id: device.id,
        name: device.name,
        series: 'R40',
        enabled: true,
        tags: ['rooftop'],
      });
      expect(edited.tags).toEqual(['rooftop']);
      const [log] = (await admin.ok('GET', `/device/log/list?deviceId=${device.id}&subject=edited`))
        .records as TDeviceLog[];
      expect(JSON.parse(log!.content)).toEqual({
        tags: { from: ['pilot', '北区'], to: ['rooftop'] },
      });
    });

    it('refuses bad tags naming the field', async () => {
      const bad = async (tags: unknown[], field: RegExp) => {
        const res = await admin.post('/device/device/add', {
          tokenId,
          sn: 'TAG-BAD',
          name: 'bad',
          series: 'R40',
          tags,
        });
        expect(res.statusCode, res.body).toBe(400);
        expect(fieldText(res.json())).toMatch(field);
      };
      await bad(['a,b'], /^tags\.0: .*comma/);
      await bad(['   '], /^tags\.0: /);
      await bad(['x'.repeat(33)], /^tags\.0: /);
      await bad(
        Array.from({ length: 21 }, (_, i) => `t${i}`),
        /^tags: /,
      );
      expect((await admin.ok('GET', '/device/device/list?sn=TAG-BAD')).total).toBe(0);
      const list = await admin.get('/device/device/list?tags=a,' + 'y'.repeat(33));
      expect(list.statusCode).toBe(400);
      expect(fieldText(list.json())).toMatch(/^tags/);
    });

    it('adds and removes tags in bulk, logs each change, and counts tags per company', async () => {
      const a = await add('BULK-A', { tags: ['old'] });
      const b = await add('BULK-B');
      const c = await add('BULK-C');
      const added = await admin.ok('POST', '/device/tags/add', {
        ids: [a.id, b.id],
        tags: ['rack-7', 'old'],
      });
      expect(added).toEqual({ count: 2 });
      expect(await listSns(admin, 'tags=rack-7')).toEqual(['BULK-A', 'BULK-B']);
      expect(await listSns(admin, 'tags=old,rack-7')).toEqual(['BULK-A', 'BULK-B']);
      expect(await listSns(admin, 'sn=BULK&tags=nope')).toEqual([]);
      expect((await admin.ok('GET', `/device/device/queryById?id=${a.id}`)).tags).toEqual([
        'old',
        'rack-7',
      ]);
      // Only what was new is logged: A had `old` already.
      expect((await tagLogs(a.id)).map((e) => JSON.parse(e.content))).toEqual([
        { added: ['rack-7'] },
      ]);
      expect((await tagLogs(b.id)).map((e) => JSON.parse(e.content))).toEqual([
        { added: ['rack-7', 'old'] },
      ]);
      expect(await tagLogs(c.id)).toEqual([]);

      const counts = await admin.ok('GET', '/device/tags');
      expect(counts).toEqual(
        expect.arrayContaining([
          { tag: 'rack-7', count: 2 },
          { tag: 'old', count: 2 },
        ]),
      );

      const removed = await admin.ok('POST', '/device/tags/remove', {
        ids: [a.id, b.id, c.id],
        tags: ['old'],
      });
      expect(removed).toEqual({ count: 2 });
      expect(await listSns(admin, 'tags=old')).toEqual([]);
      // The test clock stands still: both entries of B carry the same time.
      const logsOfB = await tagLogs(b.id);
      expect(logsOfB.map((l) => l.subject)).toEqual(['Tags changed', 'Tags changed']);
      expect(logsOfB.map((l) => JSON.parse(l.content))).toEqual(
        expect.arrayContaining([{ added: ['rack-7', 'old'] }, { removed: ['old'] }]),
      );
      expect(await tagLogs(c.id)).toEqual([]);
    });

    it('refuses a bulk add that would put a device over 20 tags, changing nothing', async () => {
      const full = await add('LIMIT-1', { tags: Array.from({ length: 19 }, (_, i) => `t${i}`) });
      const other = await add('LIMIT-2');
      const res = await admin.post('/device/tags/add', {
        ids: [other.id, full.id],
        tags: ['x', 'y'],
      });
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe(
        'tags: at most 20 tags per device (LIMIT-1 would have 21)',
      );
      expect((await admin.ok('GET', `/device/device/queryById?id=${other.id}`)).tags).toEqual([]);
      // A tag it has already does not count twice.
      await admin.ok('POST', '/device/tags/add', { ids: [full.id], tags: ['t0', 'x'] });
      expect((await admin.ok('GET', `/device/device/queryById?id=${full.id}`)).tags).toHaveLength(
        20,
      );
      const bad = await admin.post('/device/tags/add', { ids: [other.id], tags: ['a,b'] });
      expect(bad.statusCode).toBe(400);
      expect(fieldText(bad.json())).toMatch(/^tags\.0: /);
    });

    it('keeps tags within the company: another company’s devices are not found, nor counted', async () => {
      const mine = await add('ISO-1', { tags: ['secret-site'] });
      const res = await bossB.post('/device/tags/add', { ids: [mine.id], tags: ['stolen'] });
      expect(res.statusCode).toBe(404);
      const removed = await bossB.post('/device/tags/remove', {
        ids: [mine.id],
        tags: ['secret-site'],
      });
      expect(removed.statusCode).toBe(404);
      expect((await admin.ok('GET', `/device/device/queryById?id=${mine.id}`)).tags).toEqual([
        'secret-site',
      ]);
      expect(await bossB.ok('GET', '/device/tags')).toEqual([]);
      expect((await bossB.ok('GET', '/device/device/list?tags=secret-site')).total).toBe(0);
    });

    it('needs device:tag to change tags in bulk and device:list to read them', async () => {
      const device = await add('PERM-1');
      const roleId = await createRole(t, PLATFORM_COMPANY_ID, ['device', 'device-list']);
      await t.createUser({
        username: 'tagreader',
        password: 'Tag-Reader-Pass-1',
        companyId: PLATFORM_COMPANY_ID,
        roleIds: [roleId],
      });
      const reader = client(t, await t.login('tagreader', 'Tag-Reader-Pass-1'));
      expect((await reader.get('/device/tags')).statusCode).toBe(200);
      const res = await reader.post('/device/tags/add', { ids: [device.id], tags: ['x'] });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('import and export', () => {
    const upload = (csv: string, dryRun: 'true' | 'false') => {
      const form = importForm(
        { name: 'devices.csv', content: Buffer.from(csv) },
        {
          tokenId,
          dryRun,
        },
      );
      return t.app.inject({
        method: 'POST',
        url: '/api/device/device/importExcel',
        headers: { ...admin.headers, ...form.headers },
        payload: form.payload,
      });
    };

    it('imports goods, location path, vendor and tags by name; unknown names are row errors', async () => {
      const csv = [
        '"sn","name","series","物料型号","位置路径","供应商","标签"',
        'IMP-1,one,R40,R40-4G,华东/上海站/柜1,Acme Supply,"north, rack-9"',
        'IMP-2,two,R40,,杭州站,,',
        'IMP-3,three,R40,NO-SUCH,华东 / 苏州站,Nobody,"ok,' + 'z'.repeat(33) + '"',
        'IMP-4,four,R40,B-MODEL,B site,B vendor,',
      ].join('\n');
      const res = await upload(csv, 'false');
      expect(res.statusCode, res.body).toBe(200);
      const result = res.json().result;
      expect(result).toMatchObject({ total: 4, valid: 2, invalid: 2, imported: 2 });
      expect(result.errors).toEqual([
        { row: 4, field: 'goods', message: 'goods model NO-SUCH does not exist' },
        {
          row: 4,
          field: 'locationPath',
          message: 'location 华东 / 苏州站 does not exist (write it as Region / Site / Cabinet)',
        },
        { row: 4, field: 'vendor', message: 'vendor Nobody does not exist' },
        {
          row: 4,
          field: 'tags',
          message: `tag ${'z'.repeat(33)} is invalid: each tag has 1 to 32 characters, separated by commas`,
        },
        // Company B's base data is no name this company can use.
        { row: 5, field: 'goods', message: 'goods model B-MODEL does not exist' },
        {
          row: 5,
          field: 'locationPath',
          message: 'location B site does not exist (write it as Region / Site / Cabinet)',
        },
        { row: 5, field: 'vendor', message: 'vendor B vendor does not exist' },
      ]);
      const one = (await admin.ok('GET', '/device/device/list?sn=IMP-1')).records[0] as TDevice;
      expect(one).toMatchObject({
        goodsModel: 'R40-4G',
        locationPath: '华东 / 上海站 / 柜1',
        vendorName: 'Acme Supply',
        tags: ['north', 'rack-9'],
      });
      const two = (await admin.ok('GET', '/device/device/list?sn=IMP-2')).records[0] as TDevice;
      expect(two).toMatchObject({ locationPath: '杭州站', goodsId: null, tags: [] });
      expect(await listSns(admin, 'sn=IMP')).toEqual(['IMP-1', 'IMP-2']);
    });

    it('exports the names and tags in the columns an import reads back', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/device/device/exportXls?format=csv&sn=IMP-1',
        headers: { ...admin.headers, 'accept-language': 'zh-CN' },
      });
      expect(res.statusCode).toBe(200);
      const [header, row] = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      const columns = header!.split(',');
      const cells = row!.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/);
      const at = (name: string) => cells[columns.indexOf(name)];
      expect(at('物料型号')).toBe('R40-4G');
      expect(at('位置路径')).toBe('华东 / 上海站 / 柜1');
      expect(at('供应商')).toBe('Acme Supply');
      expect(at('标签')).toBe('"north,rack-9"');
    });
  });
});
