import { PassThrough, Readable } from 'node:stream';
import { IMPORT_COLUMNS } from '@blrms/contracts';
import ExcelJS from 'exceljs';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import {
  addSheetHeader,
  addSheetRow,
  localDateTime,
  type SheetCell,
  type SheetColumn,
} from '../../platform/sheet/sheet-cells.js';

/**
 * Reading and writing device sheets (CSV and XLSX). No rules here: the service decides what a
 * row means.
 */

export type ImportColumn = (typeof IMPORT_COLUMNS)[number];

const IMPORT_COLUMN_LABELS: Record<ImportColumn, MessageKey> = {
  sn: 'deviceColumnSn',
  name: 'deviceColumnName',
  series: 'deviceColumnSeries',
  model: 'deviceColumnModel',
  version: 'deviceColumnVersion',
  group: 'deviceColumnGroup',
  remark: 'deviceColumnRemark',
  location: 'deviceColumnLocation',
};

const LANGS: Lang[] = ['zh-CN', 'en-US'];

function normalize(header: string): string {
  return header.trim().toLowerCase().replace(/\s+/g, ' ');
}

/** A header cell may be the column key or its label in either language. */
const HEADER_ALIASES = new Map<string, ImportColumn>(
  IMPORT_COLUMNS.flatMap((column) => [
    [normalize(column), column] as const,
    ...LANGS.map(
      (lang) => [normalize(message(lang, IMPORT_COLUMN_LABELS[column])), column] as const,
    ),
  ]),
);

/** Column index of every known header; unknown headers are ignored. */
export function mapHeader(header: string[]): Map<ImportColumn, number> {
  const columns = new Map<ImportColumn, number>();
  header.forEach((cell, index) => {
    const column = HEADER_ALIASES.get(normalize(cell));
    if (column && !columns.has(column)) columns.set(column, index);
  });
  return columns;
}

export type SheetKind = 'xlsx' | 'csv';

/** By content, then by name: an .xlsx is a zip file (starts with PK). */
export function sheetKind(filename: string, content: Buffer): SheetKind | null {
  if (content.subarray(0, 2).toString('latin1') === 'PK') return 'xlsx';
  if (/\.csv$/i.test(filename)) return 'csv';
  return null;
}

/** RFC 4180: quoted fields may hold commas, quotes ("") and line breaks. A UTF-8 BOM is skipped. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** Rows of the first worksheet as text, the way a spreadsheet shows the cells. */
export async function parseXlsx(content: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(content as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) return [];
  const rows: string[][] = [];
  sheet.eachRow({ includeEmpty: true }, (row, rowNumber) => {
    const cells: string[] = [];
    for (let col = 1; col <= row.cellCount; col++) cells.push(row.getCell(col).text ?? '');
    rows[rowNumber - 1] = cells;
  });
  return Array.from(rows, (r) => r ?? []);
}

/**
 * A CSV field quoted when needed; a leading =, + or @ is defused so that spreadsheets show text
 * instead of running a formula. (A leading - is kept: SNs may start with one.)
 */
function csvField(value: string): string {
  const safe = /^[=+@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A CSV (UTF-8 with BOM, so Excel reads Chinese) streamed from batches of rows. */
export function csvStream(
  columns: SheetColumn[],
  batches: AsyncIterable<SheetCell[][]>,
  timeZone: string,
): Readable {
  const field = (cell: SheetCell) =>
    csvField(cell instanceof Date ? localDateTime(cell, timeZone) : cell);
  return Readable.from(
    (async function* () {
      yield `\uFEFF${columns.map((c) => csvField(c.header)).join(',')}\r\n`;
      for await (const rows of batches) {
        yield rows.map((r) => `${r.map(field).join(',')}\r\n`).join('');
      }
    })(),
  );
}

/** An XLSX streamed row by row: memory stays flat however many devices are exported. */
export function xlsxStream(
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

/** An XLSX workbook in memory (tests and benchmarks build import files with it). */
export async function xlsxBuffer(rows: string[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('devices');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
