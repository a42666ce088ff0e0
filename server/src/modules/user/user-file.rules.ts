import type { Readable } from 'node:stream';
import { ADMIN_USER_STATUS, USER_FILE_COLUMNS, type TAdminUser } from '@blrms/contracts';
import { AppError } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import type { SheetCell, SheetColumn } from '../../platform/sheet/sheet-cells.js';
import {
  readSheet,
  sheetKind,
  type SheetTable,
  type SheetUpload,
} from '../../platform/sheet/sheet-reader.js';
import { sheetStream, type SheetFormat } from '../../platform/sheet/sheet-writer.js';
import { USER_FILE_MAX_ROWS, type ImportRow } from './user-admin.service.js';
// The header and status maps below read this module's labels as the file loads (message() throws
// for a key not yet declared).
import './user.messages.js';

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

function cellsOf(user: TAdminUser, lang: Lang): SheetCell[] {
  return EXPORT_COLUMNS.map((c) => c.value(user, lang));
}

function columnsOf(lang: Lang): SheetColumn[] {
  return EXPORT_COLUMNS.map((c) => ({ header: message(lang, c.label), time: c.time }));
}

/**
 * Headers and labels in the requester's language, times in their zone, as the console shows;
 * written by the sheet module (one escaping rule for every export).
 */
export function userSheet(
  users: TAdminUser[],
  format: SheetFormat,
  lang: Lang,
  timeZone: string,
): Readable {
  const batches = (async function* () {
    yield users.map((u) => cellsOf(u, lang));
  })();
  return sheetStream(format, message(lang, 'userExportSheet'), columnsOf(lang), batches, timeZone);
}

function toRows(table: SheetTable): ImportRow[] | null {
  // A header is the column key or its label in either language (an exported file imports).
  const names = (c: UserFileColumn) =>
    [c, ...LANGS.map((lang) => message(lang, COLUMN_LABELS[c]))].map(normalize);
  const index = USER_FILE_COLUMNS.map((c) =>
    table.header.findIndex((h) => names(c).includes(normalize(h))),
  );
  if (index[0] === -1) return null;
  return table.rows.map(({ row, cells }) => {
    const at = (i: number) => {
      const column = index[i] ?? -1;
      return column === -1 ? '' : (cells[column] ?? '').trim();
    };
    const status = at(4);
    return {
      row,
      username: at(0),
      realname: at(1),
      phone: at(2),
      email: at(3),
      status: STATUS_CODES.get(normalize(status)) ?? status,
    };
  });
}

/**
 * The rows of an uploaded file, or null when it is not a user file (not a sheet, or no username
 * column). Streamed by the sheet module: more than USER_FILE_MAX_ROWS rows stop the read.
 */
export async function parseUserFile(file: SheetUpload): Promise<ImportRow[] | null> {
  const kind = sheetKind(file);
  if (!kind) return null;
  const table = await readSheet(kind, file.content, {
    maxRows: USER_FILE_MAX_ROWS,
    tooManyRows: () => new AppError('adminImportTooLarge', 400, { max: USER_FILE_MAX_ROWS }),
  });
  return toRows(table);
}
