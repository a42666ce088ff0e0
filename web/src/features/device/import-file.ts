import { IMPORT_COLUMNS, IMPORT_FILE_MAX_BYTES } from '@blrms/contracts';

/** Why a chosen file cannot be imported, checked before it is sent; null when it can. */
export function isImportFile(file: { name: string; size: number }): 'type' | 'size' | null {
  if (!/\.(csv|xlsx)$/i.test(file.name)) return 'type';
  if (file.size > IMPORT_FILE_MAX_BYTES) return 'size';
  return null;
}

/** A CSV with the import's header row and one example device, to fill in. */
export function importTemplate(): Blob {
  // Tags are comma-separated inside one cell, hence the quotes.
  const example = [
    'R40-000001',
    'Router 1',
    'R40',
    'R40-4G',
    '1.0.0',
    '',
    '',
    '',
    '',
    '',
    '',
    '"pilot,north"',
  ];
  const csv = `${IMPORT_COLUMNS.join(',')}\r\n${example.join(',')}\r\n`;
  return new Blob([csv], { type: 'text/csv;charset=utf-8' });
}
