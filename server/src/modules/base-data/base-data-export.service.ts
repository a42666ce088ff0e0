import type { Readable } from 'node:stream';
import {
  SHEET_CONTENT_TYPES,
  sheetStream,
  type SheetFormat,
} from '../../platform/sheet/sheet-writer.js';
import type { SheetCell, SheetColumn } from '../../platform/sheet/sheet-cells.js';
import { serverTimeZone } from '../../platform/sheet/sheet-cells.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message } from '../../platform/http/messages.js';
import { readSheet, sheetKind, type SheetUpload } from '../../platform/sheet/sheet-reader.js';
import { mapHeader, rowsOf, type SheetSpec } from './base-data-sheet.rules.js';
import { BASE_IMPORT_ROWS_MAX } from '@blrms/contracts';

/** Rows per database read of an export: memory stays flat however many rows there are. */
const EXPORT_BATCH = 500;

export interface ExportFile {
  filename: string;
  contentType: string;
  body: Readable;
}

/**
 * An export of one base-data table: its rows read in batches (`read(limit, offset)`) and written
 * as they come, in the asked format.
 */
export function exportFile<R>(options: {
  name: string;
  sheetName: string;
  format: SheetFormat;
  timeZone: string | undefined;
  now: number;
  columns: SheetColumn[];
  read: (limit: number, offset: number) => Promise<R[]>;
  cells: (row: R) => SheetCell[];
}): ExportFile {
  const { read, cells } = options;
  const batches = (async function* () {
    for (let offset = 0; ; offset += EXPORT_BATCH) {
      const rows = await read(EXPORT_BATCH, offset);
      if (rows.length > 0) yield rows.map(cells);
      if (rows.length < EXPORT_BATCH) return;
    }
  })();
  const stamp = new Date(options.now).toISOString().slice(0, 10).replaceAll('-', '');
  return {
    filename: `${options.name}-${stamp}.${options.format}`,
    contentType: SHEET_CONTENT_TYPES[options.format],
    body: sheetStream(
      options.format,
      options.sheetName,
      options.columns,
      batches,
      options.timeZone ?? serverTimeZone(),
    ),
  };
}

/**
 * The uploaded sheet's data rows (XLSX or CSV, at most `BASE_IMPORT_ROWS_MAX`) as text by column;
 * a sheet without the spec's required columns is refused, naming them in the reader's language.
 */
export async function importRows<C extends string>(
  spec: SheetSpec<C>,
  file: SheetUpload,
  lang: Lang,
): Promise<{ row: number; v: Record<C, string> }[]> {
  const kind = sheetKind(file);
  if (!kind) throw new AppError('baseImportFileType', 400);
  const table = await readSheet(kind, file.content, {
    maxRows: BASE_IMPORT_ROWS_MAX,
    tooManyRows: () => new AppError('baseImportTooManyRows', 400, { max: BASE_IMPORT_ROWS_MAX }),
  });
  const columns = mapHeader(spec, table.header);
  if (!spec.required.every((c) => columns.has(c))) {
    throw new AppError('baseImportNoHeader', 400, {
      columns: spec.required.map((c) => message(lang, spec.labels[c])).join(', '),
    });
  }
  return rowsOf(spec, table, columns);
}
