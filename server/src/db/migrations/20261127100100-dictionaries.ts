import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';

/*
 * Dictionaries become company data (issue 18): every dictionary has an owning company, the
 * platform company's being the platform dictionaries every company reads; a company's code is
 * unique within the company only (its own dictionary of a platform code replaces the platform's
 * for it). Deleting moves a dictionary to the recycle bin (`del_flag`), items get a description
 * and both get an update time.
 *
 * The foundation made `dict_code` unique on its own, and SQLite cannot drop a column's unique
 * constraint: the two tables are rebuilt. They hold a few hundred rows at most, which are read
 * into memory, and the tables created again with the new shape.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

const stableId = (kind: string, key: string) =>
  createHash('sha256').update(`${kind}:${key}`).digest('hex').slice(0, 32);

interface OldDict {
  id: string;
  dict_name: string;
  dict_name_en: string | null;
  dict_code: string;
  description: string | null;
  create_time: number | string;
}

interface OldItem {
  id: string;
  dict_id: string;
  item_text: string;
  item_text_en: string | null;
  item_value: string;
  item_color: string | null;
  sort_order: number;
  status: number;
  create_time: number | string;
}

async function createTables(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('sys_dict')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('dict_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('dict_name_en', 'varchar(100)')
    .addColumn('dict_code', 'varchar(64)', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .addUniqueConstraint('uq_sys_dict_company_code', ['company_id', 'dict_code'])
    .execute();

  await db.schema
    .createTable('sys_dict_item')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('dict_id', id, (c) => c.notNull().references('sys_dict.id').onDelete('cascade'))
    .addColumn('item_text', 'varchar(100)', (c) => c.notNull())
    .addColumn('item_text_en', 'varchar(100)')
    .addColumn('item_value', 'varchar(100)', (c) => c.notNull())
    .addColumn('item_color', 'varchar(32)')
    .addColumn('description', 'varchar(255)')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .addUniqueConstraint('uq_sys_dict_item_dict_value', ['dict_id', 'item_value'])
    .execute();
}

export async function up(db: AnyDb): Promise<void> {
  const dicts = (await db.selectFrom('sys_dict').selectAll().execute()) as OldDict[];
  const items = (await db.selectFrom('sys_dict_item').selectAll().execute()) as OldItem[];
  await db.schema.dropTable('sys_dict_item').execute();
  await db.schema.dropTable('sys_dict').execute();
  await createTables(db);

  // Existing dictionaries were the platform's (the seed's and those added since).
  const platform = stableId('company', 'platform');
  const hasPlatform = await db
    .selectFrom('sys_company')
    .select('id')
    .where('id', '=', platform)
    .executeTakeFirst();
  if (!hasPlatform) return;
  for (const d of dicts) {
    await db
      .insertInto('sys_dict')
      .values({ ...d, create_time: Number(d.create_time), company_id: platform, del_flag: 0 })
      .execute();
  }
  for (const i of items) {
    await db
      .insertInto('sys_dict_item')
      .values({ ...i, create_time: Number(i.create_time) })
      .execute();
  }
}

export async function down(db: AnyDb): Promise<void> {
  // Back to one dictionary per code: the platform's live ones; companies' dictionaries go.
  const platform = stableId('company', 'platform');
  const dicts = await db
    .selectFrom('sys_dict')
    .select(['id', 'dict_name', 'dict_name_en', 'dict_code', 'description', 'create_time'])
    .where('company_id', '=', platform)
    .where('del_flag', '=', 0)
    .execute();
  const ids = dicts.map((d: { id: string }) => d.id);
  const items =
    ids.length === 0
      ? []
      : await db
          .selectFrom('sys_dict_item')
          .select([
            'id',
            'dict_id',
            'item_text',
            'item_text_en',
            'item_value',
            'item_color',
            'sort_order',
            'status',
            'create_time',
          ])
          .where('dict_id', 'in', ids)
          .execute();
  await db.schema.dropTable('sys_dict_item').execute();
  await db.schema.dropTable('sys_dict').execute();
  await db.schema
    .createTable('sys_dict')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('dict_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('dict_name_en', 'varchar(100)')
    .addColumn('dict_code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(255)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('sys_dict_item')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('dict_id', id, (c) => c.notNull().references('sys_dict.id').onDelete('cascade'))
    .addColumn('item_text', 'varchar(100)', (c) => c.notNull())
    .addColumn('item_text_en', 'varchar(100)')
    .addColumn('item_value', 'varchar(100)', (c) => c.notNull())
    .addColumn('item_color', 'varchar(32)')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_dict_item_value', ['dict_id', 'item_value'])
    .execute();
  for (const d of dicts) await db.insertInto('sys_dict').values(d).execute();
  for (const i of items) await db.insertInto('sys_dict_item').values(i).execute();
}
