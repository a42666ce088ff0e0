import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import unzipper from 'unzipper';
import { describe, expect, it } from 'vitest';
import { zipOf } from '../../test/zip-bomb.js';
import { AppError } from '../http/app-error.js';
import { readSheet } from './sheet-reader.js';
import { xlsxBuffer } from './sheet-writer.js';

const limits = { maxRows: 1000, tooManyRows: () => new AppError('importTooManyRows', 400) };

/** The parts of an XLSX zipped again in the order `rank` gives, those `stored` not deflated. */
async function rezipped(
  content: Buffer,
  rank: (path: string) => number,
  stored: (path: string) => boolean = () => false,
): Promise<Buffer> {
  const { files } = await unzipper.Open.buffer(content);
  const parts = await Promise.all(
    files
      .filter((file) => file.type === 'File')
      .map(async (file) => ({ name: file.path, data: await file.buffer() })),
  );
  parts.sort((a, b) => rank(a.name) - rank(b.name));
  return zipOf(
    parts.map(({ name, data }) =>
      stored(name)
        ? { name, data, size: data.length, stored: true }
        : { name, data: deflateRawSync(data), size: data.length },
    ),
  );
}

describe('reading an XLSX', () => {
  it('reads every row of a workbook whose worksheet comes before its workbook part, every time', async () => {
    const rows = [['sn', 'name'], ...Array.from({ length: 20 }, (_, i) => [`ORDER-${i}`, `n${i}`])];
    // The worksheet before the shared strings and the workbook part, those stored rather than
    // deflated (as some writers do): a streaming reader has read the whole file while it is
    // still on the worksheet.
    const sheetFirst = (path: string) =>
      path === '[Content_Types].xml' || path.includes('_rels/')
        ? 0
        : path.startsWith('xl/worksheets/')
          ? 1
          : 2;
    const content = await rezipped(
      await xlsxBuffer(rows),
      sheetFirst,
      (path) => sheetFirst(path) === 2,
    );
    // The streaming zip reader this replaced refused such a file in about one read of five.
    for (let read = 0; read < 50; read++) {
      const table = await readSheet('xlsx', content, limits);
      expect(table.header).toEqual(['sn', 'name']);
      expect(table.rows).toHaveLength(20);
    }
  });

  it('reads the first tab, whatever the order of the sheets in the zip', async () => {
    const workbook = new ExcelJS.Workbook();
    const devices = workbook.addWorksheet('Devices');
    devices.addRow(['sn', 'name']);
    devices.addRow(['TAB-1', 'first tab']);
    workbook.addWorksheet('Notes').addRow(['not', 'this']);
    // ExcelJS writes the tabs' parts in their order: put the first tab's (sheet1) after the
    // second's, both after the workbook part.
    const sheets = ['xl/worksheets/sheet2.xml', 'xl/worksheets/sheet1.xml'];
    const content = await rezipped(Buffer.from(await workbook.xlsx.writeBuffer()), (path) =>
      sheets.indexOf(path),
    );
    const table = await readSheet('xlsx', content, limits);
    expect(table.header).toEqual(['sn', 'name']);
    expect(table.rows).toEqual([{ row: 2, cells: ['TAB-1', 'first tab'] }]);
  });
});
