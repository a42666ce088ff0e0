import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

/*
 * Device management: token keys, groups, devices, device logs, and `device_stats`, the per-company
 * device counts that keep list totals and the dashboard summary fast on millions of devices.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The dimensions `device_stats` counts by: every column a list filter or a data rule can test by
 * equality. NULLs are stored as '' so that the columns can form the primary key.
 */
const STATS_COLUMNS = [
  'company_id',
  'token_id',
  'owner_id',
  'sys_org_code',
  'group_id',
  'series',
  'status',
  'version',
] as const;

function isPostgres(db: AnyDb): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('device_token')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('owner_id', id, (c) => c.notNull().references('sys_user.id'))
    .addColumn('code', 'varchar(16)', (c) => c.notNull().unique())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('remark', 'varchar(255)')
    .addColumn('token_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('key_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('auto_register', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('idx_device_token_company_time')
    .on('device_token')
    .columns(['company_id', 'create_time'])
    .execute();

  await db.schema
    .createTable('device_group')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('remark', 'varchar(255)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .addUniqueConstraint('uq_device_group_company_name', ['company_id', 'name', 'id'])
    .execute();

  await db.schema
    .createTable('device')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('token_id', id, (c) => c.notNull().references('device_token.id'))
    .addColumn('sn', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('series', 'varchar(16)', (c) => c.notNull())
    .addColumn('model', 'varchar(64)')
    .addColumn('version', 'varchar(64)')
    .addColumn('group_id', id, (c) => c.references('device_group.id').onDelete('set null'))
    .addColumn('owner_id', id, (c) => c.notNull().references('sys_user.id'))
    .addColumn('sys_org_code', 'varchar(64)')
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('remark', 'varchar(255)')
    .addColumn('location', 'varchar(128)')
    // Written by the MQTT gateway.
    .addColumn('status', 'varchar(16)', (c) => c.notNull().defaultTo('offline'))
    .addColumn('ip', 'varchar(64)')
    .addColumn('last_seen_at', 'bigint')
    .addColumn('last_connect_at', 'bigint')
    .addColumn('last_disconnect_at', 'bigint')
    .addColumn('disconnect_reason', 'varchar(255)')
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    // One SN per token: the broker finds a device by (token, SN).
    .addUniqueConstraint('uq_device_token_sn', ['token_id', 'sn'])
    .execute();
  // Each list filter (and the default sort) gets an index that also yields rows in creation
  // order, so a filtered first page reads 20 index entries; the other sort columns get their own.
  const deviceIndexes: Record<string, string[]> = {
    idx_device_company_time: ['company_id', 'create_time', 'id'],
    idx_device_company_status_time: ['company_id', 'status', 'create_time', 'id'],
    idx_device_company_series_time: ['company_id', 'series', 'create_time', 'id'],
    idx_device_company_group_time: ['company_id', 'group_id', 'create_time', 'id'],
    idx_device_company_owner_time: ['company_id', 'owner_id', 'create_time', 'id'],
    idx_device_company_sn: ['company_id', 'sn', 'id'],
    idx_device_company_name: ['company_id', 'name', 'id'],
    idx_device_company_version: ['company_id', 'version', 'id'],
    idx_device_company_seen: ['company_id', 'last_seen_at', 'id'],
  };
  for (const [name, columns] of Object.entries(deviceIndexes)) {
    await db.schema.createIndex(name).on('device').columns(columns).execute();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let stats: CreateTableBuilder<any, any> = db.schema.createTable('device_stats');
  for (const column of STATS_COLUMNS) {
    stats = stats.addColumn(column, 'varchar(64)', (c) => c.notNull());
  }
  await stats
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('pk_device_stats', [...STATS_COLUMNS])
    .execute();

  await createStatsTriggers(db);

  await db.schema
    .createTable('device_log')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    // No foreign key: the log of a device outlives the device.
    .addColumn('device_id', id)
    .addColumn('sn', 'varchar(64)')
    .addColumn('request_url', 'varchar(1000)', (c) => c.notNull())
    .addColumn('source_user', 'varchar(64)')
    .addColumn('target_user', 'varchar(64)')
    .addColumn('subject', 'varchar(128)', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('source_ip', 'varchar(64)')
    .addColumn('log_time', 'bigint', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_device_log_company_time')
    .on('device_log')
    .columns(['company_id', 'log_time'])
    .execute();
  await db.schema
    .createIndex('idx_device_log_device_time')
    .on('device_log')
    .columns(['device_id', 'log_time'])
    .execute();
}

/**
 * `device_stats` is kept by triggers, in the transaction of the change, so that every writer (the
 * API, imports, the MQTT gateway) keeps it exact without having to remember it.
 */
async function createStatsTriggers(db: AnyDb): Promise<void> {
  const columns = STATS_COLUMNS.join(', ');
  const values = (row: 'new' | 'old', n: 1 | -1) =>
    `${STATS_COLUMNS.map((c) => `coalesce(${row}.${c}, '')`).join(', ')}, ${n}`;
  const upsert = (row: 'new' | 'old', n: 1 | -1) =>
    `insert into device_stats (${columns}, n) values (${values(row, n)})
       on conflict (${columns}) do update set n = device_stats.n + excluded.n;`;
  const changed = STATS_COLUMNS.map((c) => `old.${c} is distinct from new.${c}`).join(' or ');

  if (isPostgres(db)) {
    await sql
      .raw(
        `create function device_stats_apply() returns trigger language plpgsql as $$
         begin
           if tg_op = 'UPDATE' and not (${changed}) then return null; end if;
           if tg_op in ('UPDATE', 'DELETE') then ${upsert('old', -1)} end if;
           if tg_op in ('UPDATE', 'INSERT') then ${upsert('new', 1)} end if;
           return null;
         end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger device_stats_apply after insert or update or delete on device
         for each row execute function device_stats_apply()`,
      )
      .execute(db);
    return;
  }
  const sqliteChanged = STATS_COLUMNS.map((c) => `old.${c} is not new.${c}`).join(' or ');
  await sql
    .raw(`create trigger device_stats_insert after insert on device begin ${upsert('new', 1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger device_stats_delete after delete on device begin ${upsert('old', -1)} end`)
    .execute(db);
  await sql
    .raw(
      `create trigger device_stats_update after update on device when ${sqliteChanged}
       begin ${upsert('old', -1)} ${upsert('new', 1)} end`,
    )
    .execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('device_log').execute();
  await db.schema.dropTable('device').execute();
  await db.schema.dropTable('device_stats').execute();
  if (isPostgres(db)) await sql`drop function if exists device_stats_apply()`.execute(db);
  await db.schema.dropTable('device_group').execute();
  await db.schema.dropTable('device_token').execute();
}
