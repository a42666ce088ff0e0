import type { Worksheet } from 'exceljs';
import { defuse } from './formula.js';

/**
 * Cells of exported sheets, written the way the console shows them. A time is a Date (an
 * instant): CSV writes it as local `YYYY-MM-DD HH:mm:ss` text in the requester's time zone, XLSX
 * as a date cell that reads the same, so that a spreadsheet can sort and filter it as a date.
 */
export type SheetCell = string | Date;

/** The number format of XLSX date cells, the console's `YYYY-MM-DD HH:mm:ss`. */
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm:ss';

/** Wide enough for `2026-11-25 17:23:38`: a narrower date column shows only ####. */
const DATE_COLUMN_WIDTH = 20;

/** The zone used when the console sends none (an API client, an old console). */
export function serverTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

const formats = new Map<string, Intl.DateTimeFormat>();

/** Year, month, day, hour, minute and second of an instant on the clocks of a zone. */
function wallClock(at: Date, timeZone: string): number[] {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  const parts = new Map(format.formatToParts(at).map((p) => [p.type, Number(p.value)]));
  const fields: Intl.DateTimeFormatPartTypes[] = [
    'year',
    'month',
    'day',
    'hour',
    'minute',
    'second',
  ];
  return fields.map((type) => parts.get(type) ?? 0);
}

/** `2026-11-25 17:23:38`: the instant as the console shows it in the given zone. */
export function localDateTime(at: Date, timeZone: string): string {
  const [year = 0, ...rest] = wallClock(at, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  const [month, day, hour, minute, second] = rest.map(two);
  return `${String(year).padStart(4, '0')}-${month}-${day} ${hour}:${minute}:${second}`;
}

/**
 * A spreadsheet date has no zone: it is the wall-clock reading. ExcelJS writes a Date's UTC
 * reading, so the Date handed to it carries the local reading in its UTC fields.
 */
function spreadsheetDate(at: Date, timeZone: string): Date {
  const [year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0] = wallClock(at, timeZone);
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second));
}

/** A column of an exported sheet: its localized header, and whether its cells are times. */
export interface SheetColumn {
  header: string;
  time?: boolean;
}

/** Sets the widths of the time columns and writes the header row (before any other row). */
export function addSheetHeader(sheet: Worksheet, columns: SheetColumn[]): void {
  columns.forEach((column, index) => {
    if (column.time) sheet.getColumn(index + 1).width = DATE_COLUMN_WIDTH;
  });
  sheet.addRow(columns.map((c) => defuse(c.header))).commit();
}

/**
 * Adds a row to an XLSX sheet, its times as date cells in the given zone and its text defused
 * (a text cell is safe while typed, but not once someone edits it or saves the sheet as CSV).
 * Committing lets a streamed sheet write the row out; an in-memory sheet ignores it.
 */
export function addSheetRow(sheet: Worksheet, cells: SheetCell[], timeZone: string): void {
  const row = sheet.addRow(
    cells.map((cell) => (cell instanceof Date ? spreadsheetDate(cell, timeZone) : defuse(cell))),
  );
  cells.forEach((cell, index) => {
    if (cell instanceof Date) row.getCell(index + 1).numFmt = DATE_TIME_FORMAT;
  });
  row.commit();
}
