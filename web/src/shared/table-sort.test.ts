import { describe, expect, it } from 'vitest';
import { sortOf } from './table-sort';

const COLUMNS = ['createTime', 'sn', 'name'] as const;

describe('sortOf', () => {
  it('sorts by a whitelisted column in the order the user chose', () => {
    expect(sortOf({ columnKey: 'sn', order: 'ascend' }, COLUMNS, 'createTime')).toEqual({
      column: 'sn',
      order: 'asc',
    });
    expect(sortOf([{ columnKey: 'name', order: 'descend' }], COLUMNS, 'createTime')).toEqual({
      column: 'name',
      order: 'desc',
    });
  });

  it('falls back for columns the server does not sort by and for a cleared sort', () => {
    expect(sortOf({ columnKey: 'remark', order: 'ascend' }, COLUMNS, 'createTime')).toEqual({
      column: 'createTime',
      order: 'asc',
    });
    expect(sortOf({ columnKey: 'sn', order: null }, COLUMNS, 'createTime')).toEqual({
      column: 'createTime',
      order: 'desc',
    });
  });
});
