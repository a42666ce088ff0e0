import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import { AppError } from '../http/app-error.js';
import { restore } from './formula.js';
import { openZipWithin } from './zip-guard.js';

/**
 * Reading uploaded sheets (CSV and XLSX), streamed: rows are read one at a time and the read
 * stops at the row limit, so a file never costs more than the rows it may import. No rules here:
 * each module decides what a row means.
 */

export type SheetKind = 'xlsx' | 'csv';

export interface SheetUpload {
  filename: string;
  content: Buffer;
}

/** A non-blank row: its number in the sheet (the header is row 1) and its cells as text. */
export interface SheetRow {
  row: number;
  cells: string[];
}

export interface SheetTable {
  header: string[];
  rows: SheetRow[];
}

export interface ReadLimits {
  /** Non-blank rows after the header; one more stops the read with `tooManyRows`. */
  maxRows: number;
  tooManyRows: () => AppError;
}

/** What the content of an XLSX may inflate to: a 50,000-row sheet of long cells fits. */
export const SHEET_MAX_UNCOMPRESSED_BYTES = 100 * 1024 * 1024;

/** A CSV record longer than this is not a row of any of our sheets. */
const CSV_MAX_RECORD_BYTES = 1024 * 1024;

/** By content, then by name: an .xlsx is a zip file (starts with PK). */
export function sheetKind(upload: SheetUpload): SheetKind | null {
  if (upload.content.subarray(0, 2).toString('latin1') === 'PK') return 'xlsx';
  if (/\.csv$/i.test(upload.filename)) return 'csv';
  return null;
}

async function* csvRows(content: Buffer): AsyncGenerator<SheetRow> {
  const parser = Readable.from([content]).pipe(
    parse({
      bom: true,
      relax_column_count: true,
      relax_quotes: true,
      max_record_size: CSV_MAX_RECORD_BYTES,
    }),
  );
  let row = 0;
  try {
    for await (const record of parser) {
      row += 1;
      yield { row, cells: record as string[] };
    }
  } finally {
    parser.destroy();
  }
}

/**
 * The parts of ExcelJS's streaming workbook reader used here. Its own `parse` reads the zip with
 * unzipper's streaming `Parse`, which signals the end of the entries once it has read the whole
 * input, even while entries it has read still wait to be taken: when the reader is busy on a
 * sheet that comes before the workbook part (as in files ExcelJS and Excel write), the remaining
 * parts were now and then lost and a valid file refused. The parts are therefore taken from the
 * zip's central directory, in the order the reader needs them, and handed to its own parsers.
 */
interface WorkbookParts {
  workbookRels?: { Id: string; Target: string }[];
  model?: { sheets?: { rId: string }[] };
  _parseRels(entry: Readable): Promise<void>;
  _parseWorkbook(entry: Readable): Promise<void>;
  _parseSharedStrings(entry: Readable): AsyncGenerator<unknown>;
  _parseWorksheet(
    iterator: AsyncIterable<Buffer>,
    sheetNo: string,
  ): Generator<{ value: ExcelJS.stream.xlsx.WorksheetReader }>;
}

/** A part's path in the zip from a target of the workbook's relationships. */
function partPath(target: string): string {
  return target.startsWith('/') ? target.slice(1) : `xl/${target}`;
}

async function* xlsxRows(content: Buffer): AsyncGenerator<SheetRow> {
  const files = await openZipWithin(content, SHEET_MAX_UNCOMPRESSED_BYTES);
  const part = (path: string) => files.find((file) => file.path === path);
  // Styles and hyperlinks are not read: an import wants the cells' text only.
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  }) as unknown as WorkbookParts;
  const rels = part('xl/_rels/workbook.xml.rels');
  const book = part('xl/workbook.xml');
  if (!rels || !book) throw new Error('not a workbook');
  await reader._parseRels(rels.stream());
  await reader._parseWorkbook(book.stream());
  const strings = part('xl/sharedStrings.xml');
  if (strings) for await (const _ of reader._parseSharedStrings(strings.stream()));

  // Only the first worksheet is read: the first tab, as the user sees it.
  const first = reader.model?.sheets?.[0];
  const target = reader.workbookRels?.find((rel) => rel.Id === first?.rId)?.Target;
  const sheetPart = target === undefined ? undefined : part(partPath(target));
  if (!target || !sheetPart) throw new Error('no worksheet');
  const sheetNo = /sheet(\d+)\.xml$/.exec(target)?.[1] ?? '1';
  const source = sheetPart.stream();
  try {
    for (const { value: sheet } of reader._parseWorksheet(source, sheetNo)) {
      for await (const row of sheet) {
        const cells: string[] = [];
        // A rich text cell reads as its runs' plain text, a formula as its result.
        for (let col = 1; col <= row.cellCount; col++) cells.push(row.getCell(col).text ?? '');
        yield { row: row.number, cells };
      }
    }
  } finally {
    source.destroy();
  }
}

/** Rows of the first worksheet of an XLSX, or of a CSV (UTF-8, with or without a BOM). */
function rowsOf(kind: SheetKind, content: Buffer): AsyncGenerator<SheetRow> {
  return kind === 'xlsx' ? xlsxRows(content) : csvRows(content);
}

/**
 * The header (row 1) and the non-blank rows of a sheet, our formula marker taken off every
 * cell. Throws `tooManyRows` as soon as the limit is passed, `importFileUnreadable` (400) for a
 * file that is not a sheet, `sheetUncompressedTooLarge` (413) for a zip bomb.
 */
export async function readSheet(
  kind: SheetKind,
  content: Buffer,
  limits: ReadLimits,
): Promise<SheetTable> {
  const table: SheetTable = { header: [], rows: [] };
  try {
    for await (const { row, cells } of rowsOf(kind, content)) {
      const text = cells.map(restore);
      if (row === 1) table.header = text;
      else if (text.some((cell) => cell.trim() !== '')) {
        if (table.rows.length === limits.maxRows) throw limits.tooManyRows();
        table.rows.push({ row, cells: text });
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('importFileUnreadable', 400);
  }
  return table;
}
