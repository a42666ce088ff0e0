import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, createTestApp, fieldText, type TestContext } from '../../test/app.js';
import { client, importForm, type Client } from '../../test/devices.js';
import { zipBomb } from '../../test/zip-bomb.js';
import { xlsxBuffer } from './sheet-writer.js';

/**
 * The sheet module through every route that uses it: the device and user exports and imports.
 * One escaping rule, one upload form, and imports that cannot exhaust the server.
 */

/** Cells a spreadsheet would run: the attack of issue 14 and one of each guarded first character. */
const LIVE = [`-2+3+cmd|' /C calc'!A0`, '=HYPERLINK("http://x")', '+1+1', '@SUM(1)', '\tTAB'];

/** The text of every cell of the first sheet of an XLSX, row by row. */
async function xlsxText(content: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const rows: string[][] = [];
  workbook.worksheets[0]?.eachRow((row) => {
    const cells: string[] = [];
    for (let c = 1; c <= row.cellCount; c++) cells.push(row.getCell(c).text);
    rows.push(cells);
  });
  return rows;
}

describe('one spreadsheet module for every import and export', () => {
  let t: TestContext;
  let admin: Client;
  let tokenId: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = client(t, await t.login('admin', ADMIN_PASSWORD));
    tokenId = (await admin.ok('POST', '/device/token/add', { name: 'sheets' })).id;
    for (const [index, text] of LIVE.entries()) {
      await admin.ok('POST', '/device/device/add', {
        tokenId,
        sn: `LIVE-${index}`,
        name: `live ${index}`,
        series: 'R40',
      });
      // Model and firmware are what a device reports over MQTT: nothing stops it sending these.
      await t.db
        .updateTable('device')
        .set({ model: text, version: text })
        .where('sn', '=', `LIVE-${index}`)
        .execute();
      await t.createUser({ username: `live${index}`, password: 'Str0ng-Pass-1' });
      await t.db
        .updateTable('sys_user')
        .set({ realname: text })
        .where('username', '=', `live${index}`)
        .execute();
    }
  });
  afterAll(() => t.close());

  const deviceImport = (
    file: { name: string; content: Buffer; type?: string },
    fields: Record<string, string> = { tokenId, dryRun: 'false' },
  ) => {
    const form = importForm(file, fields);
    return t.app.inject({
      method: 'POST',
      url: '/api/device/device/importExcel',
      headers: { ...admin.headers, ...form.headers },
      payload: form.payload,
    });
  };
  const userImport = (file: { name: string; content: Buffer; type?: string }) => {
    const form = importForm(file, {});
    return t.app.inject({
      method: 'POST',
      url: '/api/sys/user/importExcel',
      headers: { ...admin.headers, ...form.headers },
      payload: form.payload,
    });
  };
  const exportOf = async (url: string) => {
    const res = await t.app.inject({ method: 'GET', url: `/api${url}`, headers: admin.headers });
    expect(res.statusCode).toBe(200);
    return res.rawPayload;
  };
  const devicesOf = async (sn: string) =>
    t.db
      .selectFrom('device')
      .select(['sn', 'model', 'version', 'name'])
      .where('sn', 'like', `${sn}%`)
      .orderBy('sn')
      .execute();

  describe('formula injection', () => {
    it('defuses model and firmware text in the device CSV and XLSX exports', async () => {
      const csv = (
        await exportOf('/device/device/exportXls?format=csv&sn=LIVE&column=sn&order=asc')
      )
        .toString('utf8')
        .replace(/^\uFEFF/, '');
      const xlsx = await xlsxText(
        await exportOf('/device/device/exportXls?format=xlsx&sn=LIVE&column=sn&order=asc'),
      );
      for (const [index, text] of LIVE.entries()) {
        const quoted = `"'${text.replaceAll('"', '""')}"`;
        const bare = `'${text}`;
        const line = csv.split('\r\n')[index + 1] ?? '';
        expect([quoted, bare].some((cell) => line.includes(`,${cell},${cell},`))).toBe(true);
        // Model and firmware version are the 5th and 6th columns.
        expect(xlsx[index + 1]?.slice(4, 6)).toEqual([bare, bare]);
      }
    });

    it('defuses the same text in the user CSV and XLSX exports', async () => {
      const csv = (await exportOf('/sys/user/exportXls?format=csv&username=live'))
        .toString('utf8')
        .replace(/^\uFEFF/, '');
      const xlsx = await xlsxText(await exportOf('/sys/user/exportXls?format=xlsx&username=live'));
      for (const [index, text] of LIVE.entries()) {
        const line = csv.split('\r\n').find((l) => l.startsWith(`live${index},`)) ?? '';
        const cell = line.slice(`live${index},`.length);
        expect(cell.startsWith(`'${text.slice(0, 1)}`) || cell.startsWith(`"'`)).toBe(true);
        expect(xlsx.find((r) => r[0] === `live${index}`)?.[1]).toBe(`'${text}`);
      }
    });

    it('keeps numbers-as-text and dates readable: only text cells get the marker', async () => {
      const xlsx = await exportOf('/device/device/exportXls?format=xlsx&sn=LIVE-0');
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(xlsx as unknown as ArrayBuffer);
      const created = workbook.worksheets[0]?.getRow(2).getCell(14);
      expect(created?.type).toBe(ExcelJS.ValueType.Date);
    });

    it.each(['csv', 'xlsx'] as const)(
      'imports an exported %s back with the cell text unchanged',
      async (format) => {
        const exported = await exportOf(
          `/device/device/exportXls?format=${format}&sn=LIVE&column=sn&order=asc`,
        );
        // The same file, the SNs renamed so that the rows are new devices.
        const rows =
          format === 'csv'
            ? null
            : (await xlsxText(exported)).map((cells, i) =>
                i === 0 ? cells : cells.map((c, col) => (col === 1 ? c.replace('LIVE', 'XL') : c)),
              );
        const content =
          rows === null
            ? Buffer.from(exported.toString('utf8').replaceAll(',LIVE-', ',CSV-'))
            : await xlsxBuffer(rows);
        const res = await deviceImport({ name: `devices.${format}`, content });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().result).toMatchObject({ imported: LIVE.length, invalid: 0 });
        const prefix = format === 'csv' ? 'CSV-' : 'XL-';
        // An import trims its cells, so the tab before TAB goes; every other text is as it was.
        expect((await devicesOf(prefix)).map((d) => [d.model, d.version])).toEqual(
          LIVE.map((text) => [text.trim(), text.trim()]),
        );
      },
    );

    it('keeps a leading apostrophe that is not ours', async () => {
      const csv = ['sn,name,series,model', `QUOTE-1,'quoted,R40,'=x`].join('\r\n');
      const res = await deviceImport({ name: 'devices.csv', content: Buffer.from(csv) });
      expect(res.statusCode).toBe(200);
      expect(await devicesOf('QUOTE-')).toEqual([
        { sn: 'QUOTE-1', name: "'quoted", model: '=x', version: null },
      ]);
    });

    it('imports exported users back with their names unchanged', async () => {
      const exported = (await exportOf('/sys/user/exportXls?format=xlsx&username=live')).subarray();
      const rows = (await xlsxText(exported)).map((cells, i) =>
        i === 0
          ? cells.slice(0, 5)
          : [cells[0]?.replace('live', 'back') ?? '', ...cells.slice(1, 5)],
      );
      const res = await userImport({ name: 'users.xlsx', content: await xlsxBuffer(rows) });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result).toEqual({ created: LIVE.length, errors: [] });
      const names = await t.db
        .selectFrom('sys_user')
        .select('realname')
        .where('username', 'like', 'back%')
        .orderBy('username')
        .execute();
      expect(names.map((n) => n.realname)).toEqual(LIVE.map((text) => text.trim()));
    });
  });

  describe('cells', () => {
    const richText = {
      richText: [{ text: 'Rich ' }, { font: { bold: true }, text: 'text' }, { text: ' cell' }],
    };

    it('imports a rich text cell as its plain text (devices)', async () => {
      const content = await xlsxBuffer([
        ['sn', 'name', 'series'],
        ['RICH-1', richText, 'R40'],
      ]);
      const res = await deviceImport({ name: 'devices.xlsx', content });
      expect(res.statusCode, res.body).toBe(200);
      expect((await devicesOf('RICH-'))[0]?.name).toBe('Rich text cell');
    });

    it('imports a rich text cell as its plain text (users)', async () => {
      const content = await xlsxBuffer([
        ['username', 'realname'],
        ['richuser', richText],
      ]);
      const res = await userImport({ name: 'users.xlsx', content });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result).toEqual({ created: 1, errors: [] });
      const user = await t.db
        .selectFrom('sys_user')
        .select('realname')
        .where('username', '=', 'richuser')
        .executeTakeFirst();
      expect(user?.realname).toBe('Rich text cell');
    });
  });

  describe('limits', () => {
    it('refuses a device file over the row limit and imports nothing', async () => {
      const lines = ['sn,name,series'];
      for (let i = 0; i <= 50_000; i++) lines.push(`LIMIT-${i},d${i},R40`);
      const res = await deviceImport({
        name: 'devices.csv',
        content: Buffer.from(lines.join('\n')),
      });
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('file: at most 50000 rows can be imported');
      expect(await devicesOf('LIMIT-')).toEqual([]);
    });

    it('refuses a user file over the row limit and imports nothing', async () => {
      const rows: string[][] = [['username']];
      for (let i = 0; i <= 5000; i++) rows.push([`limit${i}`]);
      const res = await userImport({ name: 'users.xlsx', content: await xlsxBuffer(rows) });
      expect(res.statusCode).toBe(400);
      expect(fieldText(res.json())).toBe('file: at most 5000 rows per import');
      const count = await t.db
        .selectFrom('sys_user')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('username', 'like', 'limit%')
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(0);
    });

    it.each([
      ['declares its size', 300 * 1024 * 1024],
      ['lies about its size', 1000],
    ])('refuses a zip bomb that %s, quickly and without inflating it', async (_, declared) => {
      const bomb = await zipBomb(300 * 1024 * 1024, declared);
      expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
      const before = process.memoryUsage().rss;
      const started = Date.now();
      const res = await deviceImport({ name: 'bomb.xlsx', content: bomb });
      expect(res.statusCode).toBe(413);
      expect(fieldText(res.json())).toBe(
        'file: the file would uncompress to more than 100 MB and is refused',
      );
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(process.memoryUsage().rss - before).toBeLessThan(100 * 1024 * 1024);
      const users = await userImport({ name: 'bomb.xlsx', content: bomb });
      expect(users.statusCode).toBe(413);
    });

    it('runs one import at a time per company: a second one gets 429', async () => {
      const lines = ['sn,name,series'];
      for (let i = 0; i < 20_000; i++) lines.push(`BUSY-${i},d${i},R40`);
      const file = { name: 'devices.csv', content: Buffer.from(lines.join('\n')) };
      const dryRun = { tokenId, dryRun: 'true' };
      const users = { name: 'users.csv', content: Buffer.from('username\nbusyuser') };
      // Users and devices share the company's slot: whichever starts first runs alone.
      const results = await Promise.all([
        deviceImport(file, dryRun),
        deviceImport(file, dryRun),
        userImport(users),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 429, 429]);
      for (const refused of results.filter((r) => r.statusCode === 429)) {
        expect(refused.json().message).toBe(
          'An import is already running for your company; try again when it has finished',
        );
      }
      // The slot is free again once the first import has finished.
      expect((await deviceImport(file, dryRun)).statusCode).toBe(200);
    });
  });

  describe('one upload form', () => {
    it('takes the user file as the multipart part `file`, like the device import', async () => {
      const res = await userImport({
        name: 'users.csv',
        content: Buffer.from('username,realname\nformuser,Form User'),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().result).toEqual({ created: 1, errors: [] });
    });

    it('still takes the raw body older consoles send', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/sys/user/importExcel',
        headers: { ...admin.headers, 'content-type': 'text/csv' },
        payload: 'username\nrawuser',
      });
      expect(res.json().result).toEqual({ created: 1, errors: [] });
    });
  });
});
