import type { TBaseImportRowError } from '@blrms/contracts';
import type { z } from 'zod';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import { validationProblems } from '../../platform/http/validation-message.js';
import type { SheetTable } from '../../platform/sheet/sheet-reader.js';
// The header maps read this module's labels (message() throws for a key not yet declared).
import './base-data.messages.js';

/**
 * The sheets of goods, locations and vendors: headers in either language (or the column keys),
 * each row's cells by column, and a row's problems by column. Reading and writing the files is
 * the sheet module's (platform/sheet); the services decide what a row means.
 */

/** Row errors an import reports at most (the rest are counted in `invalid`). */
export const IMPORT_ERRORS_MAX = 1000;

const LANGS: Lang[] = ['zh-CN', 'en-US'];
const normalise = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

export interface SheetSpec<C extends string> {
  columns: readonly C[];
  labels: Record<C, MessageKey>;
  required: readonly C[];
}

/** Where each known column is in the header row; unknown columns are ignored. */
export function mapHeader<C extends string>(spec: SheetSpec<C>, header: string[]): Map<C, number> {
  const lookup = new Map<string, C>(
    spec.columns.flatMap((column) => [
      [normalise(column), column] as const,
      ...LANGS.map((lang) => [normalise(message(lang, spec.labels[column])), column] as const),
    ]),
  );
  const columns = new Map<C, number>();
  header.forEach((cell, index) => {
    const column = lookup.get(normalise(cell));
    if (column && !columns.has(column)) columns.set(column, index);
  });
  return columns;
}

/** The data rows as trimmed text by column ('' for a column the sheet lacks). */
export function rowsOf<C extends string>(
  spec: SheetSpec<C>,
  table: SheetTable,
  columns: Map<C, number>,
): { row: number; v: Record<C, string> }[] {
  return table.rows.map(({ row, cells }) => ({
    row,
    v: Object.fromEntries(
      spec.columns.map((c) => {
        const at = columns.get(c);
        return [c, at === undefined ? '' : (cells[at] ?? '').trim()];
      }),
    ) as Record<C, string>,
  }));
}

/** A cell that must be a number: the number, null when blank, NaN when it is not one. */
export function numberCell(text: string): number | null {
  if (text === '') return null;
  return /^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
}

/**
 * The problems of a row the contract's schema refused, by column, in the request language: the
 * same rules (and words) as the API's 400s. `columnOf` maps the schema's field to the sheet's.
 */
export function schemaProblems(
  error: z.ZodError,
  row: number,
  lang: Lang,
  columnOf: (field: string) => string = (field) => field,
): TBaseImportRowError[] {
  // The shape fastify-type-provider-zod gives the error handler, so the rules read the same.
  const issues = error.issues.map(({ path, code, message: text, ...params }) => ({
    keyword: code,
    instancePath: `/${path.join('/')}`,
    schemaPath: `#/${path.join('/')}/${code}`,
    message: text,
    params,
  }));
  return validationProblems(issues, undefined, lang).map((p) => ({
    row,
    field: columnOf(p.field),
    message: p.message,
  }));
}

/** Collects row errors in row order, up to `IMPORT_ERRORS_MAX`, and the rows that had one. */
export class RowErrors {
  readonly list: TBaseImportRowError[] = [];
  readonly rows = new Set<number>();

  constructor(private readonly lang: Lang) {}

  add(row: number, field: string, key: MessageKey, params: Record<string, string | number> = {}) {
    this.push({ row, field, message: message(this.lang, key, params) });
  }

  push(...errors: TBaseImportRowError[]) {
    for (const error of errors) {
      this.rows.add(error.row);
      if (this.list.length < IMPORT_ERRORS_MAX) this.list.push(error);
    }
  }

  has(row: number): boolean {
    return this.rows.has(row);
  }

  sorted(): TBaseImportRowError[] {
    return [...this.list].sort((a, b) => a.row - b.row);
  }
}
