import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID } from '../../db/seed/seed.js';
import { ADMIN_PASSWORD, createTestApp, type TestContext, fieldText } from '../../test/app.js';
import { client, importForm, type Client } from '../../test/devices.js';
import { xlsxBuffer } from '../../platform/sheet/sheet-writer.js';

describe('device import and export', () => {
  let t: TestContext;
  let admin: Client;
  let tokenId: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    tokenId = (await admin.ok('POST', '/device/token/add', { name: 'import' })).id;
    await admin.ok('POST', '/device/group/add', { name: 'Plant 1' });
    await admin.ok('POST', '/device/device/add', {
      tokenId,
      sn: 'EXISTING-1',
      name: 'existing',
      series: 'R40',
    });
  });
  afterAll(() => t.close());

  const upload = (
    file: { name: string; content: Buffer },
    fields: Record<string, string>,
    lang = 'en-US',
  ) => {
    const form = importForm(file, fields);
    return t.app.inject({
      method: 'POST',
      url: '/api/device/device/importExcel',
      headers: { ...admin.headers, 'accept-language': lang, ...form.headers },
      payload: form.payload,
    });
  };

  const csv = [
    'sn,name,series,model,version,group,remark,location',
    'CSV-1,first,R40,R40-A,1.0.0,Plant 1,"quoted, with comma",Shenzhen',
    'CSV-2,second,bl10x,,1.0.1,,,',
    'bad sn,third,R40,,,,,',
    'CSV-1,dup in file,R40,,,,,',
    'EXISTING-1,dup in db,R40,,,,,',
    'CSV-3,,X1,,,Nowhere,,',
    ',,,,,,,',
    'CSV-4,fourth,S27X,,,,,',
  ].join('\r\n');

  it('previews a CSV without writing anything', async () => {
    const res = await upload(
      { name: 'devices.csv', content: Buffer.from(csv) },
      { tokenId, dryRun: 'true' },
    );
    expect(res.statusCode).toBe(200);
    const result = res.json().result;
    expect(result).toMatchObject({ dryRun: true, total: 7, valid: 3, invalid: 4, imported: 0 });
    expect(result.preview[0]).toEqual({
      row: 2,
      sn: 'CSV-1',
      name: 'first',
      series: 'R40',
      model: 'R40-A',
      version: '1.0.0',
      group: 'Plant 1',
      remark: 'quoted, with comma',
      location: 'Shenzhen',
      goods: '',
      locationPath: '',
      vendor: '',
      tags: '',
    });
    expect(result.errors).toEqual([
      { row: 4, field: 'sn', message: 'must be 1 to 64 letters, digits, _ or -' },
      { row: 5, field: 'sn', message: 'SN repeats row 2' },
      { row: 6, field: 'sn', message: 'SN already exists!' },
      { row: 7, field: 'name', message: 'is required' },
      { row: 7, field: 'series', message: 'must be one of: R40, BL10X, S27X' },
      { row: 7, field: 'group', message: 'group Nowhere does not exist' },
    ]);
    expect((await admin.ok('GET', '/device/device/list?sn=CSV')).total).toBe(0);
  });

  it('imports the good rows of a CSV and reports the bad ones', async () => {
    const res = await upload(
      { name: 'devices.csv', content: Buffer.from(csv) },
      { tokenId, dryRun: 'false' },
    );
    expect(res.json().result).toMatchObject({ dryRun: false, valid: 3, invalid: 4, imported: 3 });
    const list = await admin.ok('GET', '/device/device/list?sn=CSV&column=sn&order=asc');
    expect(list.records.map((d: { sn: string }) => d.sn)).toEqual(['CSV-1', 'CSV-2', 'CSV-4']);
    expect(list.records[0]).toMatchObject({
      groupName: 'Plant 1',
      remark: 'quoted, with comma',
      ownerName: 'admin',
    });
    expect(list.records[1].series).toBe('BL10X');
    const logs = await admin.ok('GET', '/device/log/list?subject=imported');
    expect(logs.total).toBe(3);
  });

  it('imports an XLSX with Chinese headers in any column order', async () => {
    const content = await xlsxBuffer([
      ['设备系列', 'SN', '设备名称', '固件版本', '分组'],
      ['S27X', 'XLSX-1', '一号', '2.0', 'Plant 1'],
      ['R40', 'XLSX-2', '二号', '', ''],
    ]);
    const res = await upload({ name: '设备.xlsx', content }, { tokenId, dryRun: 'false' }, 'zh-CN');
    expect(res.json().result).toMatchObject({ total: 2, valid: 2, invalid: 0, imported: 2 });
    const device = (await admin.ok('GET', '/device/device/list?sn=XLSX-1')).records[0];
    expect(device).toMatchObject({
      name: '一号',
      series: 'S27X',
      version: '2.0',
      groupName: 'Plant 1',
    });
  });

  it('reports row errors in the request language', async () => {
    const content = Buffer.from('sn,name,series\nZH-1,x,Q\n');
    const res = await upload({ name: 'a.csv', content }, { tokenId, dryRun: 'true' }, 'zh-CN');
    expect(res.json().result.errors).toEqual([
      { row: 2, field: 'series', message: '必须是以下之一：R40, BL10X, S27X' },
    ]);
  });

  it.each([
    [
      { name: 'a.txt', content: Buffer.from('sn,name,series\n') },
      400,
      'file: must be an .xlsx or .csv file',
    ],
    [
      { name: 'a.csv', content: Buffer.from('serial,title\nA,b\n') },
      400,
      'file: the first row must be a header with the columns sn, name, series',
    ],
    [
      { name: 'a.xlsx', content: Buffer.from('PK\u0003\u0004garbage') },
      400,
      'file: the file could not be read',
    ],
  ])('refuses a bad file %#', async (file, status, messageText) => {
    const res = await upload(file, { tokenId, dryRun: 'true' });
    expect(res.statusCode).toBe(status);
    expect(fieldText(res.json())).toBe(messageText);
  });

  it('refuses bad form fields and another company’s token', async () => {
    const file = { name: 'a.csv', content: Buffer.from('sn,name,series\nF-1,x,R40\n') };
    const bad = await upload(file, { tokenId: "1' or '1'='1", dryRun: 'true' });
    expect(bad.statusCode).toBe(400);
    expect(fieldText(bad.json())).toBe('tokenId: is invalid');
    const companyB = await t.createCompany('import-b');
    await t.createUser({
      username: 'importb',
      password: 'Import-B-Pass-1',
      companyId: companyB,
      roleIds: [ADMIN_ROLE_ID],
    });
    const b = client(t, await t.login('importb', 'Import-B-Pass-1'));
    const form = importForm(file, { tokenId, dryRun: 'false' });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/device/device/importExcel',
      headers: { ...b.headers, ...form.headers },
      payload: form.payload,
    });
    expect(res.statusCode).toBe(404);
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/device/device/importExcel',
      headers: { ...admin.headers, 'content-type': 'application/json' },
      payload: {},
    });
    expect(missing.statusCode).toBe(400);
    expect(fieldText(missing.json())).toBe('file: is required');
  });

  it('refuses a 50 MB file with 413', async () => {
    const content = Buffer.alloc(50 * 1024 * 1024, 'a');
    const res = await upload({ name: 'huge.csv', content }, { tokenId, dryRun: 'true' });
    expect(res.statusCode).toBe(413);
    expect(fieldText(res.json())).toBe('file: must be at most 20 MB');
  });

  it('exports the current filter as CSV with localized headers', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/device/device/exportXls?format=csv&sn=CSV&column=sn&order=asc',
      headers: { ...admin.headers, 'accept-language': 'zh-CN' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="devices-\d{8}\.csv"/,
    );
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      '设备标签码,SN,设备名称,设备系列,型号,固件版本,分组,状态,Token密钥,所属用户,IP,位置,最后在线,创建时间,备注,物料型号,位置路径,供应商,标签',
    );
    expect(lines.slice(1).map((l) => l.split(',')[1])).toEqual(['CSV-1', 'CSV-2', 'CSV-4']);
    expect(lines[1]).toContain('"quoted, with comma"');
    expect(lines[1]).toContain(',离线,');
  });

  it('exports XLSX that reads back, in English', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/device/device/exportXls?format=xlsx&series=S27X',
      headers: admin.headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('Devices');
    expect(sheet?.getRow(1).getCell(2).text).toBe('SN');
    const sns = [];
    for (let r = 2; r <= (sheet?.rowCount ?? 0); r++) sns.push(sheet?.getRow(r).getCell(2).text);
    expect(sns.sort()).toEqual(['CSV-4', 'XLSX-1']);
  });
  describe('times and codes as the console shows them', () => {
    /** 09:23:38 UTC is 17:23:38 in Shanghai and 04:23:38 in New York. */
    const seen = Date.UTC(2026, 10, 25, 9, 23, 38, 362);
    beforeAll(async () => {
      await admin.ok('POST', '/device/device/add', {
        tokenId,
        sn: 'TZ-1',
        name: 'tz',
        series: 'R40',
      });
      await t.db
        .updateTable('device')
        .set({ status: 'online', last_seen_at: seen, create_time: seen })
        .where('sn', '=', 'TZ-1')
        .execute();
    });

    const exportOf = (query: string, lang: string, sn = 'TZ-1') =>
      t.app.inject({
        method: 'GET',
        url: `/api/device/device/exportXls?sn=${sn}&${query}`,
        headers: { ...admin.headers, 'accept-language': lang },
      });

    it.each([
      ['zh-CN', 'Asia/Shanghai', '在线', '2026-11-25 17:23:38'],
      ['en-US', 'America/New_York', 'Online', '2026-11-25 04:23:38'],
    ])('writes the CSV in %s with local times of %s', async (lang, tz, status, time) => {
      const res = await exportOf(`format=csv&tz=${encodeURIComponent(tz)}`, lang);
      expect(res.statusCode).toBe(200);
      const [, row] = res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n');
      const cells = row?.split(',') ?? [];
      expect(cells[7]).toBe(status);
      expect(cells.slice(12, 14)).toEqual([time, time]);
    });

    it('writes the XLSX times as date cells of the requested zone', async () => {
      const res = await exportOf('format=xlsx&tz=Asia%2FShanghai', 'zh-CN');
      expect(res.statusCode).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const row = workbook.worksheets[0]?.getRow(2);
      expect(row?.getCell(8).value).toBe('在线');
      for (const col of [13, 14]) {
        const cell = row?.getCell(col);
        expect(cell?.type).toBe(ExcelJS.ValueType.Date);
        // A spreadsheet date has no zone: it holds the Shanghai wall-clock reading.
        expect(cell?.value).toEqual(new Date(Date.UTC(2026, 10, 25, 17, 23, 38)));
        expect(cell?.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
      }
    });

    it('still defuses a cell that would run as a formula', async () => {
      await admin.ok('POST', '/device/device/add', {
        tokenId,
        sn: 'TZ-2',
        name: '=HYPERLINK("x")',
        series: 'R40',
      });
      const res = await exportOf('format=csv', 'en-US', 'TZ-2');
      expect(res.body).toContain(`,"'=HYPERLINK(""x"")",`);
    });

    it('refuses a time zone that does not exist', async () => {
      const res = await exportOf('format=csv&tz=Mars%2FOlympus', 'en-US');
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('tz: must be an IANA time zone such as Asia/Shanghai');
    });
  });
});
