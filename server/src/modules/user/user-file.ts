import ExcelJS from 'exceljs';
import { USER_FILE_COLUMNS, type TAdminUser } from '@blrms/contracts';
import type { ImportRow } from './user-admin.service.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
export const CSV_TYPE = 'text/csv';

/** A cell that a spreadsheet would run as a formula is written as text (CSV injection). */
function safeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function cellsOf(user: TAdminUser): string[] {
  return [user.username, user.realname, user.phone ?? '', user.email ?? '', String(user.status)];
}

export function toCsv(users: TAdminUser[]): Buffer {
  const quote = (v: string) => `"${safeCell(v).replaceAll('"', '""')}"`;
  const lines = [USER_FILE_COLUMNS.join(','), ...users.map((u) => cellsOf(u).map(quote).join(','))];
  // The byte-order mark makes spreadsheet programs read the file as UTF-8 (Chinese names).
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

export async function toXlsx(users: TAdminUser[]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('users');
  sheet.addRow([...USER_FILE_COLUMNS]);
  for (const user of users) sheet.addRow(cellsOf(user).map(safeCell));
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
  const index = USER_FILE_COLUMNS.map((c) => header?.findIndex((h) => h.trim() === c) ?? -1);
  if (index[0] === -1) return null;
  return body
    .filter((cells) => cells.some((c) => c.trim() !== ''))
    .map((cells) => {
      const at = (i: number) => {
        const column = index[i] ?? -1;
        return column === -1 ? '' : (cells[column] ?? '').trim();
      };
      return { username: at(0), realname: at(1), phone: at(2), email: at(3), status: at(4) };
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
