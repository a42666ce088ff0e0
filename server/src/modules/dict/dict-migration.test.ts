import { Migrator, type Kysely, type MigrationProvider } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations } from '../../db/migrations/index.js';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import { freshDatabase } from '../../test/database.js';

const BEFORE = '20261127010100-scheduled-jobs';
const THIS = '20261127100100-dictionaries';
const provider: MigrationProvider = { getMigrations: () => Promise.resolve({ ...migrations }) };

/** The rebuild of the dictionary tables keeps the dictionaries an existing platform has. */
describe('dictionaries migration', () => {
  // The schema before the migration is not the typed one.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let db: Kysely<any>;
  let drop: () => Promise<void>;
  let migrator: Migrator;

  beforeAll(async () => {
    const fresh = await freshDatabase();
    db = fresh.handle.db;
    drop = fresh.drop;
    migrator = new Migrator({ db, provider });
    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
  });
  afterAll(async () => {
    await db.destroy();
    await drop();
  });

  it('makes existing dictionaries the platform’s, with their items, and goes back', async () => {
    await db
      .insertInto('sys_company')
      .values({
        id: PLATFORM_COMPANY_ID,
        name: 'BLRMS',
        code: 'platform',
        status: 1,
        is_platform: 1,
        create_time: 1,
      })
      .execute();
    await db
      .insertInto('sys_dict')
      .values({ id: 'd'.repeat(32), dict_name: '班次', dict_code: 'shift', create_time: 5 })
      .execute();
    await db
      .insertInto('sys_dict_item')
      .values({
        id: 'e'.repeat(32),
        dict_id: 'd'.repeat(32),
        item_text: '白班',
        item_text_en: 'Day',
        item_value: 'day',
        sort_order: 3,
        status: 0,
        create_time: 6,
      })
      .execute();

    expect((await migrator.migrateTo(THIS)).error).toBeUndefined();
    expect(await db.selectFrom('sys_dict').selectAll().execute()).toEqual([
      expect.objectContaining({
        dict_code: 'shift',
        company_id: PLATFORM_COMPANY_ID,
        del_flag: 0,
        create_time: expect.anything(),
      }),
    ]);
    expect(await db.selectFrom('sys_dict_item').selectAll().execute()).toEqual([
      expect.objectContaining({ item_value: 'day', item_text_en: 'Day', sort_order: 3, status: 0 }),
    ]);
    // A company may now hold the same code.
    await db
      .insertInto('sys_company')
      .values({
        id: 'c'.repeat(32),
        name: 'Acme',
        code: 'acme',
        status: 1,
        is_platform: 0,
        create_time: 1,
      })
      .execute();
    await db
      .insertInto('sys_dict')
      .values({
        id: 'f'.repeat(32),
        company_id: 'c'.repeat(32),
        dict_name: 'x',
        dict_code: 'shift',
        del_flag: 0,
        create_time: 7,
      })
      .execute();

    expect((await migrator.migrateTo(BEFORE)).error).toBeUndefined();
    const back = await db.selectFrom('sys_dict').select(['id', 'dict_code']).execute();
    expect(back).toEqual([{ id: 'd'.repeat(32), dict_code: 'shift' }]);
    expect(await db.selectFrom('sys_dict_item').select('item_value').execute()).toEqual([
      { item_value: 'day' },
    ]);
  });
});
