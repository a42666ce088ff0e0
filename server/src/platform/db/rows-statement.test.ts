import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabase } from '../../test/database.js';
import type { DatabaseHandle } from './database.js';
import { placeholderOf, RowsStatement } from './rows-statement.js';

describe('RowsStatement', () => {
  let handle: DatabaseHandle;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    ({ handle, drop } = await freshDatabase());
  });
  afterAll(async () => {
    await handle.db.destroy();
    await drop();
  });

  it('gives back every row as it was given, whatever the text holds', async () => {
    const rows = [
      ['plain', 1],
      ['with "quotes", commas and {braces}', -2],
      ["back\\slash and 'single'", 9_007_199_254_740_991],
      ['NULL', 0],
      [null, null],
      ['多语言 — ünïcode', 42],
      ['', 7],
    ];
    const statement = new RowsStatement(placeholderOf(handle.db));
    const table = statement.table(
      'v',
      [
        ['text', 'varchar'],
        ['n', 'bigint'],
      ],
      rows,
    );
    const { rows: read } = await handle.db.executeQuery<{ v_text: string | null; v_n: unknown }>(
      statement.compile(`with ${table} select v_text, v_n from v`),
    );
    expect(read.map((r) => [r.v_text, r.v_n === null ? null : Number(r.v_n)])).toEqual(rows);
  });
});
