import ExcelJS from 'exceljs';
import { ADMIN_USER_STATUS, USER_FILE_COLUMNS, type TAdminUser } from '@blrms/contracts';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import {
  addSheetHeader,
  addSheetRow,
  localDateTime,
  type SheetCell,
} from '../../platform/sheet/sheet-cells.js';
import type { ImportRow } from './user-admin.service.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_TYPE = 'text/csv';

type UserFileColumn = (typeof USER_FILE_COLUMNS)[number];

const COLUMN_LABELS: Record<UserFileColumn, MessageKey> = {
  username: 'userColumnUsername',
  realname: 'userColumnRealname',
  phone: 'userColumnPhone',
  email: 'userColumnEmail',
  status: 'userColumnStatus',
};

const LANGS: Lang[] = ['zh-CN', 'en-US'];

const normalize = (text: string) => text.trim().toLowerCase();

const STATUS_LABELS = {
  [ADMIN_USER_STATUS.normal]: 'userStatusNormal',
  [ADMIN_USER_STATUS.frozen]: 'userStatusFrozen',
} as const satisfies Record<number, MessageKey>;

/**
 * The status code of an imported cell: the code, or its label in either language, so that an
 * exported file imports again.
 */
const STATUS_CODES = new Map<string, string>(
  Object.entries(STATUS_LABELS).flatMap(([code, label]) =>
    LANGS.map((lang) => [normalize(message(lang, label)), code] as const),
  ),
);

/** The import columns, then the creation time (which an import ignores). */
const EXPORT_COLUMNS: {
  label: MessageKey;
  value: (u: TAdminUser, lang: Lang) => SheetCell;
  time?: boolean;
}[] = [
  { label: COLUMN_LABELS.username, value: (u) => u.username },
  { label: COLUMN_LABELS.realname, value: (u) => u.realname },
  { label: COLUMN_LABELS.phone, value: (u) => u.phone ?? '' },
  { label: COLUMN_LABELS.email, value: (u) => u.email ?? '' },
  {
    label: COLUMN_LABELS.status,
    value: (u, lang) =>
      message(
        lang,
        u.status === ADMIN_USER_STATUS.frozen ? 'userStatusFrozen' : 'userStatusNormal',
      ),
  },
  { label: 'userColumnCreateTime', value: (u) => new Date(u.createTime), time: true },
];

/** A cell that a spreadsheet would run as a formula is written as text (CSV injection). */
function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function cellsOf(user: TAdminUser, lang: Lang): SheetCell[] {
  return EXPORT_COLUMNS.map((c) => {
    const cell = c.value(user, lang);
    return cell instanceof Date ? cell : safeCell(cell);
  });
}

function columnsOf(lang: Lang) {
  return EXPORT_COLUMNS.map((c) => ({ header: message(lang, c.label), time: c.time }));
}

/** Headers and labels in the requester's language, times in their zone, as the console shows. */
export function toCsv(users: TAdminUser[], lang: Lang, timeZone: string): Buffer {
  const quote = (v: SheetCell) =>
    `"${(v instanceof Date ? localDateTime(v, timeZone) : v).replaceAll('"', '""')}"`;
  const lines = [
    columnsOf(lang)
      .map((c) => c.header)
      .join(','),
    ...users.map((u) => cellsOf(u, lang).map(quote).join(',')),
  ];
  // The byte-order mark makes spreadsheet programs read the file as UTF-8 (Chinese names).
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

/** Like the CSV, with the creation time as a date cell. */
export async function toXlsx(users: TAdminUser[], lang: Lang, timeZone: string): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(message(lang, 'userExportSheet'));
  addSheetHeader(sheet, columnsOf(lang));
  for (const user of users) addSheetRow(sheet, cellsOf(user, lang), timeZone);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function parseCsvLine(line: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

function toRows(table: string[][]): ImportRow[] | null {
  const [header, ...body] = table;
  // A header is the column key or its label in either language (an exported file imports).
  const names = (c: UserFileColumn) =>
    [c, ...LANGS.map((lang) => message(lang, COLUMN_LABELS[c]))].map(normalize);
  const index = USER_FILE_COLUMNS.map(
    (c) => header?.findIndex((h) => names(c).includes(normalize(h))) ?? -1,
  );
  if (index[0] === -1) return null;
  return body
    .filter((cells) => cells.some((c) => c.trim() !== ''))
    .map((cells) => {
      const at = (i: number) => {
        const column = index[i] ?? -1;
        return column === -1 ? '' : (cells[column] ?? '').trim();
      };
      const status = at(4);
      return {
        username: at(0),
        realname: at(1),
        phone: at(2),
        email: at(3),
        status: STATUS_CODES.get(normalize(status)) ?? status,
      };
    });
}

/** The rows of an uploaded file, or null when it is not a user file (no username column). */
export async function parseUserFile(
  body: Buffer,
  contentType: string,
): Promise<ImportRow[] | null> {
  if (contentType.startsWith(CSV_TYPE)) {
    const text = body.toString('utf8').replace(/^\uFEFF/, '');
    return toRows(text.split(/\r?\n/).map(parseCsvLine));
  }
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
  } catch {
    return null;
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) return null;
  const table: string[][] = [];
  sheet.eachRow((row) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    table.push(values.map((v) => (v === null || v === undefined ? '' : String(v as string))));
  });
  return toRows(table);
}
