import { IMPORT_COLUMNS } from '@blrms/contracts';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
// The header and status maps below read this module's labels as the file loads (message() throws
// for a key not yet declared).
import './device.messages.js';

/**
 * The columns of device sheets. Reading and writing the files is the sheet module's
 * (platform/sheet); the service decides what a row means.
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
  goods: 'deviceColumnGoods',
  locationPath: 'deviceColumnLocationPath',
  vendor: 'deviceColumnVendor',
  tags: 'deviceColumnTags',
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
