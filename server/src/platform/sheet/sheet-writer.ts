import { PassThrough, Readable, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import { defuse } from './formula.js';
import {
  addSheetHeader,
  addSheetRow,
  localDateTime,
  type SheetCell,
  type SheetColumn,
} from './sheet-cells.js';

/**
 * Writing exported sheets, streamed from batches of rows (a module pages its rows out of the
 * database), so memory stays flat however many rows are exported. Every text cell goes through
 * `defuse`; times are typed date cells in XLSX and local text in CSV.
 */

export type SheetFormat = 'csv' | 'xlsx';

export const SHEET_CONTENT_TYPES: Record<SheetFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** The Content-Disposition of a download: an ASCII name for old clients, the UTF-8 one for all. */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** A CSV (UTF-8 with BOM, so spreadsheet programs read Chinese), CRLF, quoted where needed. */
function csvStream(
  columns: SheetColumn[],
  batches: AsyncIterable<SheetCell[][]>,
  timeZone: string,
): Readable {
  const records = async function* () {
    yield columns.map((c) => defuse(c.header));
    for await (const rows of batches) {
      for (const cells of rows) {
        yield cells.map((cell) =>
          cell instanceof Date ? localDateTime(cell, timeZone) : defuse(cell),
        );
      }
    }
  };
  const out = stringify({ bom: true, record_delimiter: 'windows' });
  // An error while reading rows ends the download instead of leaving it hanging.
  pipeline(Readable.from(records()), out, () => undefined);
  return out;
}

/** An XLSX written row by row through ExcelJS' streaming writer. */
function xlsxStream(
  sheetName: string,
  columns: SheetColumn[],
  batches: AsyncIterable<SheetCell[][]>,
  timeZone: string,
): Readable {
  const out = new PassThrough();
  // Styles carry the date format of the time cells.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true });
  const sheet = workbook.addWorksheet(sheetName);
  (async () => {
    addSheetHeader(sheet, columns);
    for await (const rows of batches) for (const r of rows) addSheetRow(sheet, r, timeZone);
    sheet.commit();
    await workbook.commit();
  })().catch((error: unknown) => out.destroy(error as Error));
  return out;
}

/** The sheet of an export in the asked format. `sheetName` names the XLSX worksheet. */
export function sheetStream(
  format: SheetFormat,
  sheetName: string,
  columns: SheetColumn[],
  batches: AsyncIterable<SheetCell[][]>,
  timeZone: string,
): Readable {
  return format === 'csv'
    ? csvStream(columns, batches, timeZone)
    : xlsxStream(sheetName, columns, batches, timeZone);
}

/** An XLSX workbook in memory (tests and benchmarks build import files with it). */
export async function xlsxBuffer(rows: ExcelJS.CellValue[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
