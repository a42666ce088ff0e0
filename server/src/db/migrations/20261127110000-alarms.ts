import type { Kysely } from 'kysely';

/*
 * Alarms (issue 19, 警告管理). `alarm_rule` holds a company's rules (the condition, quiet hours and
 * receivers as JSON: they are read whole, never queried by part). `alarm` holds the alarms they
 * raised. One alarm is open per rule and device: `open_key` is `{rule}:{device}` while the alarm
 * is not cleared and NULL once it is, and its unique index makes the database, not a node's
 * memory, decide which raise opens the row when several nodes see the same crossing (NULLs never
 * collide, on SQLite and PostgreSQL alike).
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('alarm_rule')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('scope_kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('scope_value', 'varchar(64)', (c) => c.notNull())
    .addColumn('condition_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('condition', 'text', (c) => c.notNull())
    .addColumn('message_zh', 'varchar(500)', (c) => c.notNull())
    .addColumn('message_en', 'varchar(500)', (c) => c.notNull())
    .addColumn('quiet_hours', 'text')
    .addColumn('reminder_minutes', 'integer')
    .addColumn('notify', 'text', (c) => c.notNull())
    .addColumn('description', 'varchar(255)')
    .addColumn('create_by', 'varchar(64)', (c) => c.notNull())
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('update_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('idx_alarm_rule_company')
    .on('alarm_rule')
    .columns(['company_id', 'create_time', 'id'])
    .execute();
  // Nodes load the enabled rules of every company at start.
  await db.schema
    .createIndex('idx_alarm_rule_enabled')
    .on('alarm_rule')
    .column('enabled')
    .execute();

  await db.schema
    .createTable('alarm')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('rule_id', id)
    .addColumn('rule_name', 'varchar(64)', (c) => c.notNull())
    .addColumn('condition_type', 'varchar(32)', (c) => c.notNull())
    .addColumn('severity', 'varchar(16)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('device_id', id, (c) => c.notNull())
    .addColumn('sn', 'varchar(64)', (c) => c.notNull())
    .addColumn('device_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('group_id', id)
    .addColumn('message_zh', 'varchar(1000)', (c) => c.notNull())
    .addColumn('message_en', 'varchar(1000)', (c) => c.notNull())
    .addColumn('value', 'double precision')
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('first_time', 'bigint', (c) => c.notNull())
    .addColumn('last_time', 'bigint', (c) => c.notNull())
    .addColumn('ack_by', 'varchar(64)')
    .addColumn('ack_time', 'bigint')
    .addColumn('ack_comment', 'varchar(500)')
    .addColumn('clear_by', 'varchar(64)')
    .addColumn('clear_time', 'bigint')
    .addColumn('clear_comment', 'varchar(500)')
    .addColumn('clear_reason', 'varchar(32)')
    .addColumn('open_key', 'varchar(80)')
    .addColumn('last_trigger', 'varchar(64)')
    .addColumn('next_notify_time', 'bigint')
    .addColumn('notified', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('uq_alarm_open_key')
    .on('alarm')
    .column('open_key')
    .unique()
    .execute();
  // The list (newest first) and its filters, the counts by state and severity, a device's tab.
  await db.schema
    .createIndex('idx_alarm_time')
    .on('alarm')
    .columns(['company_id', 'last_time', 'id'])
    .execute();
  await db.schema
    .createIndex('idx_alarm_state')
    .on('alarm')
    .columns(['company_id', 'state', 'severity'])
    .execute();
  await db.schema
    .createIndex('idx_alarm_rule')
    .on('alarm')
    .columns(['company_id', 'rule_id', 'state'])
    .execute();
  await db.schema
    .createIndex('idx_alarm_device')
    .on('alarm')
    .columns(['device_id', 'last_time'])
    .execute();
  // The notification job: alarms whose held notification or reminder is due.
  await db.schema.createIndex('idx_alarm_notify').on('alarm').column('next_notify_time').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('alarm').execute();
  await db.schema.dropTable('alarm_rule').execute();
}
