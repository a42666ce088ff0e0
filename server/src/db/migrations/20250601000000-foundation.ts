import type { CreateTableBuilder, Kysely } from 'kysely';

/*
 * Foundation tables: companies, users, roles, menus/permissions, departments, positions,
 * dictionaries, sessions, captchas, login lockout and logs. Dialect-neutral on purpose: ids are
 * varchar(32) hex, times bigint epoch ms, booleans integer 0/1.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Table = CreateTableBuilder<any, any>;

function withId(t: Table): Table {
  return t.addColumn('id', id, (c) => c.primaryKey());
}

function createdAt(t: Table): Table {
  return t.addColumn('create_time', 'bigint', (c) => c.notNull());
}

export async function up(db: AnyDb): Promise<void> {
  await createdAt(withId(db.schema.createTable('sys_company')))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('is_platform', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('update_time', 'bigint')
    .execute();

  await createdAt(withId(db.schema.createTable('sys_user')))
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('realname', 'varchar(100)', (c) => c.notNull())
    .addColumn('password_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('avatar', 'varchar(255)')
    .addColumn('phone', 'varchar(32)', (c) => c.unique())
    .addColumn('email', 'varchar(255)', (c) => c.unique())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('org_code', 'varchar(64)')
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('create_by', 'varchar(64)')
    .addColumn('update_time', 'bigint')
    .execute();
  await db.schema.createIndex('idx_sys_user_company').on('sys_user').column('company_id').execute();

  await db.schema
    .createTable('sys_user_company')
    .addColumn('user_id', id, (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('company_id', id, (c) =>
      c.notNull().references('sys_company.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('pk_sys_user_company', ['user_id', 'company_id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_user_company_company')
    .on('sys_user_company')
    .column('company_id')
    .execute();

  await createdAt(withId(db.schema.createTable('sys_role')))
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('role_code', 'varchar(64)', (c) => c.notNull())
    .addColumn('role_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('role_name_en', 'varchar(100)')
    .addColumn('description', 'varchar(255)')
    .addUniqueConstraint('uq_sys_role_company_code', ['company_id', 'role_code'])
    .execute();

  await db.schema
    .createTable('sys_user_role')
    .addColumn('user_id', id, (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('role_id', id, (c) => c.notNull().references('sys_role.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('pk_sys_user_role', ['user_id', 'role_id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_user_role_role')
    .on('sys_user_role')
    .column('role_id')
    .execute();

  await createdAt(withId(db.schema.createTable('sys_permission')))
    .addColumn('parent_id', id, (c) => c.references('sys_permission.id'))
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('name_en', 'varchar(100)')
    .addColumn('url', 'varchar(255)')
    .addColumn('component', 'varchar(255)')
    .addColumn('component_name', 'varchar(100)')
    .addColumn('redirect', 'varchar(255)')
    .addColumn('menu_type', 'integer', (c) => c.notNull())
    .addColumn('perms', 'varchar(255)')
    .addColumn('perms_type', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
    .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
    .addColumn('sort_no', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('icon', 'varchar(100)')
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('keep_alive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('always_show', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('route', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('internal_or_external', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_leaf', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('del_flag', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('idx_sys_permission_parent')
    .on('sys_permission')
    .column('parent_id')
    .execute();
  await db.schema
    .createIndex('idx_sys_permission_perms')
    .on('sys_permission')
    .column('perms')
    .execute();

  await db.schema
    .createTable('sys_role_permission')
    .addColumn('role_id', id, (c) => c.notNull().references('sys_role.id').onDelete('cascade'))
    .addColumn('permission_id', id, (c) =>
      c.notNull().references('sys_permission.id').onDelete('cascade'),
    )
    .addColumn('data_rule_ids', 'varchar(1000)')
    .addPrimaryKeyConstraint('pk_sys_role_permission', ['role_id', 'permission_id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_role_permission_permission')
    .on('sys_role_permission')
    .column('permission_id')
    .execute();

  await createdAt(withId(db.schema.createTable('sys_permission_data_rule')))
    .addColumn('permission_id', id, (c) =>
      c.notNull().references('sys_permission.id').onDelete('cascade'),
    )
    .addColumn('rule_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('rule_column', 'varchar(100)', (c) => c.notNull())
    .addColumn('rule_conditions', 'varchar(32)', (c) => c.notNull())
    .addColumn('rule_value', 'varchar(255)', (c) => c.notNull())
    .addColumn('status', 'varchar(1)', (c) => c.notNull().defaultTo('1'))
    .execute();
  await db.schema
    .createIndex('idx_sys_permission_data_rule_permission')
    .on('sys_permission_data_rule')
    .column('permission_id')
    .execute();

  await createdAt(withId(db.schema.createTable('sys_depart')))
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('parent_id', id, (c) => c.references('sys_depart.id'))
    .addColumn('depart_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('depart_name_en', 'varchar(100)')
    .addColumn('org_code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('org_category', 'integer', (c) => c.notNull().defaultTo(2))
    .addColumn('depart_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
  await db.schema
    .createIndex('idx_sys_depart_company')
    .on('sys_depart')
    .column('company_id')
    .execute();
  await db.schema
    .createIndex('idx_sys_depart_parent')
    .on('sys_depart')
    .column('parent_id')
    .execute();

  await db.schema
    .createTable('sys_user_depart')
    .addColumn('user_id', id, (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('depart_id', id, (c) => c.notNull().references('sys_depart.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('pk_sys_user_depart', ['user_id', 'depart_id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_user_depart_depart')
    .on('sys_user_depart')
    .column('depart_id')
    .execute();

  await db.schema
    .createTable('sys_depart_permission')
    .addColumn('depart_id', id, (c) => c.notNull().references('sys_depart.id').onDelete('cascade'))
    .addColumn('permission_id', id, (c) =>
      c.notNull().references('sys_permission.id').onDelete('cascade'),
    )
    .addColumn('data_rule_ids', 'varchar(1000)')
    .addPrimaryKeyConstraint('pk_sys_depart_permission', ['depart_id', 'permission_id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_depart_permission_permission')
    .on('sys_depart_permission')
    .column('permission_id')
    .execute();

  await createdAt(withId(db.schema.createTable('sys_depart_role')))
    .addColumn('depart_id', id, (c) => c.notNull().references('sys_depart.id').onDelete('cascade'))
    .addColumn('role_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('role_code', 'varchar(64)', (c) => c.notNull())
    .addUniqueConstraint('uq_sys_depart_role_code', ['depart_id', 'role_code'])
    .execute();

  await db.schema
    .createTable('sys_depart_role_user')
    .addColumn('user_id', id, (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('drole_id', id, (c) =>
      c.notNull().references('sys_depart_role.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('pk_sys_depart_role_user', ['user_id', 'drole_id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_depart_role_user_role')
    .on('sys_depart_role_user')
    .column('drole_id')
    .execute();

  await db.schema
    .createTable('sys_depart_role_permission')
    .addColumn('depart_id', id, (c) => c.notNull().references('sys_depart.id').onDelete('cascade'))
    .addColumn('role_id', id, (c) =>
      c.notNull().references('sys_depart_role.id').onDelete('cascade'),
    )
    .addColumn('permission_id', id, (c) =>
      c.notNull().references('sys_permission.id').onDelete('cascade'),
    )
    .addColumn('data_rule_ids', 'varchar(1000)')
    .addPrimaryKeyConstraint('pk_sys_depart_role_permission', ['role_id', 'permission_id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_depart_role_permission_permission')
    .on('sys_depart_role_permission')
    .column('permission_id')
    .execute();
  await db.schema
    .createIndex('idx_sys_depart_role_permission_depart')
    .on('sys_depart_role_permission')
    .column('depart_id')
    .execute();

  await createdAt(withId(db.schema.createTable('sys_position')))
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('code', 'varchar(64)', (c) => c.notNull())
    .addColumn('name', 'varchar(100)', (c) => c.notNull())
    .addColumn('post_rank', 'varchar(32)')
    .addUniqueConstraint('uq_sys_position_company_code', ['company_id', 'code'])
    .execute();

  await db.schema
    .createTable('sys_user_position')
    .addColumn('user_id', id, (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('position_id', id, (c) =>
      c.notNull().references('sys_position.id').onDelete('cascade'),
    )
    .addPrimaryKeyConstraint('pk_sys_user_position', ['user_id', 'position_id'])
    .execute();
  await db.schema
    .createIndex('idx_sys_user_position_position')
    .on('sys_user_position')
    .column('position_id')
    .execute();

  await createdAt(withId(db.schema.createTable('sys_dict')))
    .addColumn('dict_name', 'varchar(100)', (c) => c.notNull())
    .addColumn('dict_name_en', 'varchar(100)')
    .addColumn('dict_code', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('description', 'varchar(255)')
    .execute();

  await createdAt(withId(db.schema.createTable('sys_dict_item')))
    .addColumn('dict_id', id, (c) => c.notNull().references('sys_dict.id').onDelete('cascade'))
    .addColumn('item_text', 'varchar(100)', (c) => c.notNull())
    .addColumn('item_text_en', 'varchar(100)')
    .addColumn('item_value', 'varchar(100)', (c) => c.notNull())
    .addColumn('item_color', 'varchar(32)')
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addUniqueConstraint('uq_sys_dict_item_value', ['dict_id', 'item_value'])
    .execute();

  await db.schema
    .createTable('sys_session')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('user_id', id, (c) => c.notNull().references('sys_user.id').onDelete('cascade'))
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('ip', 'varchar(64)')
    .addColumn('user_agent', 'varchar(512)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .addColumn('revoked_time', 'bigint')
    .addColumn('last_seen_time', 'bigint')
    .execute();
  await db.schema.createIndex('idx_sys_session_user').on('sys_session').column('user_id').execute();

  await db.schema
    .createTable('sys_captcha')
    .addColumn('check_key', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('expire_time', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('idx_sys_captcha_expire')
    .on('sys_captcha')
    .column('expire_time')
    .execute();

  await db.schema
    .createTable('sys_login_failure')
    .addColumn('username', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('fail_count', 'integer', (c) => c.notNull())
    .addColumn('locked_until', 'bigint')
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .execute();

  await createdAt(withId(db.schema.createTable('sys_log')))
    .addColumn('company_id', id)
    .addColumn('log_type', 'integer', (c) => c.notNull())
    .addColumn('log_content', 'varchar(1000)', (c) => c.notNull())
    .addColumn('operate_type', 'varchar(32)')
    .addColumn('user_id', id)
    .addColumn('username', 'varchar(64)')
    .addColumn('ip', 'varchar(64)')
    .addColumn('method', 'varchar(16)')
    .addColumn('request_url', 'varchar(1000)')
    .addColumn('status', 'integer')
    .addColumn('cost_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('idx_sys_log_company_type_time')
    .on('sys_log')
    .columns(['company_id', 'log_type', 'create_time'])
    .execute();
  await db.schema
    .createIndex('idx_sys_log_user_type_time')
    .on('sys_log')
    .columns(['user_id', 'log_type', 'create_time'])
    .execute();
}

const TABLES_CHILD_FIRST = [
  'sys_log',
  'sys_login_failure',
  'sys_captcha',
  'sys_session',
  'sys_dict_item',
  'sys_dict',
  'sys_user_position',
  'sys_position',
  'sys_depart_role_permission',
  'sys_depart_role_user',
  'sys_depart_role',
  'sys_depart_permission',
  'sys_user_depart',
  'sys_depart',
  'sys_permission_data_rule',
  'sys_role_permission',
  'sys_permission',
  'sys_user_role',
  'sys_role',
  'sys_user_company',
  'sys_user',
  'sys_company',
];

export async function down(db: AnyDb): Promise<void> {
  for (const table of TABLES_CHILD_FIRST) await db.schema.dropTable(table).execute();
}
