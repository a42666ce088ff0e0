import { describe, expect, it } from 'vitest';
import { listSortOf } from './use-list-page';

const COLUMNS = ['createTime', 'ruleCode', 'ruleName'] as const;

describe('listSortOf', () => {
  it('sorts by a whitelisted column in the order the user chose', () => {
    const sort = { columns: COLUMNS, fallback: 'createTime' as const };
    expect(listSortOf({ columnKey: 'ruleCode', order: 'ascend' }, sort)).toEqual({
      column: 'ruleCode',
      order: 'asc',
    });
    expect(listSortOf({ columnKey: 'remark', order: 'ascend' }, sort)).toEqual({
      column: 'createTime',
      order: 'asc',
    });
  });

  it('goes back to the fallback on a cleared sort, or keeps the column descending', () => {
    const cleared = { columnKey: 'ruleName', order: null };
    expect(listSortOf(cleared, { columns: COLUMNS, fallback: 'createTime' })).toEqual({
      column: 'createTime',
      order: 'desc',
    });
    expect(
      listSortOf(cleared, { columns: COLUMNS, fallback: 'createTime', cleared: 'column' }),
    ).toEqual({ column: 'ruleName', order: 'desc' });
    expect(listSortOf([], { columns: COLUMNS, fallback: 'createTime', cleared: 'column' })).toEqual(
      { column: 'createTime', order: 'desc' },
    );
  });
});
