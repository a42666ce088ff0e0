import { describe, expect, it } from 'vitest';
import { IMPORT_FILE_MAX_BYTES } from '@blrms/contracts';
import { importTemplate, isImportFile } from './import-file';

describe('isImportFile', () => {
  it('takes CSV and XLSX files up to the size limit', () => {
    expect(isImportFile({ name: 'devices.CSV', size: 10 })).toBeNull();
    expect(isImportFile({ name: 'devices.xlsx', size: IMPORT_FILE_MAX_BYTES })).toBeNull();
  });

  it('refuses other types and larger files', () => {
    expect(isImportFile({ name: 'devices.xls', size: 10 })).toBe('type');
    expect(isImportFile({ name: 'devices.csv.exe', size: 10 })).toBe('type');
    expect(isImportFile({ name: 'devices.csv', size: IMPORT_FILE_MAX_BYTES + 1 })).toBe('size');
  });
});

describe('importTemplate', () => {
  it('has the import header row and an example device', async () => {
    const lines = (await importTemplate().text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'sn,name,series,model,version,group,remark,location,goods,locationPath,vendor,tags',
    );
    expect(lines[1]?.endsWith(',"pilot,north"')).toBe(true);
    expect(lines[1]?.split(',').slice(0, 3)).toEqual(['R40-000001', 'Router 1', 'R40']);
  });
});
