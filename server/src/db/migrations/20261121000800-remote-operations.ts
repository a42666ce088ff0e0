import type { Kysely } from 'kysely';

/*
 * Remote operations: desired and reported configuration with its version history, commands
 * (RPC), the firmware library, and campaigns (upgrades and bulk configuration) with one row per
 * targeted device.
 */

const id = 'varchar(32)';

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  // One row per configured device: the desired version and what the device last reported.
  await db.schema
    .createTable('device_config')
    .addColumn('device_id', id, (c) => c.primaryKey().references('device.id').onDelete('cascade'))
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('desired_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('desired_json', 'text')
    .addColumn('desired_by', 'varchar(64)')
    .addColumn('desired_at', 'bigint')
    .addColumn('reported_version', 'integer')
    .addColumn('reported_json', 'text')
    .addColumn('reported_at', 'bigint')
    // none | pending | applied | failed
    .addColumn('state', 'varchar(16)', (c) => c.notNull().defaultTo('none'))
    .addColumn('error', 'varchar(1000)')
    .addColumn('sent_at', 'bigint')
    // The device log row of the last `down/config`, whose state follows the device's answer.
    .addColumn('log_id', id)
    .addColumn('campaign_id', id)
    .execute();
  // The reconnect re-send asks "does this device have an unreported version?"
  await db.schema
    .createIndex('idx_device_config_state')
    .on('device_config')
    .columns(['state', 'device_id'])
    .execute();

  await db.schema
    .createTable('device_config_version')
    .addColumn('device_id', id, (c) => c.notNull().references('device.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('config_json', 'text', (c) => c.notNull())
    .addColumn('changed_paths', 'text', (c) => c.notNull())
    .addColumn('changed_by', 'varchar(64)')
    .addColumn('campaign_id', id)
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pk_device_config_version', ['device_id', 'version'])
    .execute();

  await db.schema
    .createTable('device_command')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('device_id', id, (c) => c.notNull().references('device.id').onDelete('cascade'))
    .addColumn('sn', 'varchar(64)', (c) => c.notNull())
    .addColumn('method', 'varchar(64)', (c) => c.notNull())
    .addColumn('params_json', 'text')
    .addColumn('timeout_sec', 'integer', (c) => c.notNull())
    // sent | succeeded | failed | timeout
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('result_json', 'text')
    .addColumn('error', 'varchar(1000)')
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('deadline', 'bigint', (c) => c.notNull())
    .addColumn('reply_time', 'bigint')
    .addColumn('log_id', id)
    .execute();
  await db.schema
    .createIndex('idx_device_command_device_time')
    .on('device_command')
    .columns(['device_id', 'create_time'])
    .execute();
  // The timeout sweep: commands still waiting, by deadline.
  await db.schema
    .createIndex('idx_device_command_state_deadline')
    .on('device_command')
    .columns(['state', 'deadline'])
    .execute();

  await db.schema
    .createTable('firmware')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('series', 'varchar(16)', (c) => c.notNull())
    .addColumn('version', 'varchar(64)', (c) => c.notNull())
    .addColumn('file_name', 'varchar(255)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('release_notes', 'text')
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('uq_firmware_version', ['company_id', 'series', 'version'])
    .execute();

  await db.schema
    .createTable('campaign')
    .addColumn('id', id, (c) => c.primaryKey())
    .addColumn('company_id', id, (c) => c.notNull().references('sys_company.id'))
    .addColumn('name', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('firmware_id', id, (c) => c.references('firmware.id'))
    // Kept with the campaign: a finished campaign's firmware may be deleted later.
    .addColumn('firmware_version', 'varchar(64)')
    .addColumn('series', 'varchar(16)')
    .addColumn('config_patch_json', 'text')
    .addColumn('target_json', 'text', (c) => c.notNull())
    .addColumn('waves_json', 'text', (c) => c.notNull())
    .addColumn('max_concurrent', 'integer', (c) => c.notNull())
    .addColumn('failure_threshold', 'real', (c) => c.notNull())
    .addColumn('window_json', 'text')
    .addColumn('jitter_sec', 'integer', (c) => c.notNull())
    // running | paused | completed | canceled
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('paused_reason', 'varchar(32)')
    .addColumn('current_wave', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('create_by', 'varchar(64)')
    .addColumn('create_time', 'bigint', (c) => c.notNull())
    .addColumn('end_time', 'bigint')
    .execute();
  await db.schema
    .createIndex('idx_campaign_company_time')
    .on('campaign')
    .columns(['company_id', 'create_time'])
    .execute();
  await db.schema.createIndex('idx_campaign_state').on('campaign').column('state').execute();

  await db.schema
    .createTable('campaign_device')
    .addColumn('campaign_id', id, (c) => c.notNull().references('campaign.id').onDelete('cascade'))
    .addColumn('device_id', id, (c) => c.notNull().references('device.id').onDelete('cascade'))
    .addColumn('company_id', id, (c) => c.notNull())
    .addColumn('sn', 'varchar(64)', (c) => c.notNull())
    .addColumn('wave', 'integer', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('progress', 'integer')
    .addColumn('from_version', 'varchar(64)')
    .addColumn('error', 'varchar(1000)')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // The `{jobId}` of the OTA topics; new for every attempt.
    .addColumn('job_id', id)
    // Not notified before (jitter); the deadline of the current step (stalls fail).
    .addColumn('not_before', 'bigint')
    .addColumn('deadline', 'bigint')
    .addColumn('log_id', id)
    .addColumn('update_time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('pk_campaign_device', ['campaign_id', 'device_id'])
    .execute();
  await db.schema
    .createIndex('idx_campaign_device_state')
    .on('campaign_device')
    .columns(['campaign_id', 'state', 'wave'])
    .execute();
  // Replies name the job; reconnects name the device.
  await db.schema
    .createIndex('idx_campaign_device_job')
    .on('campaign_device')
    .column('job_id')
    .execute();
  await db.schema
    .createIndex('idx_campaign_device_device')
    .on('campaign_device')
    .columns(['device_id', 'state'])
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('campaign_device').execute();
  await db.schema.dropTable('campaign').execute();
  await db.schema.dropTable('firmware').execute();
  await db.schema.dropTable('device_command').execute();
  await db.schema.dropTable('device_config_version').execute();
  await db.schema.dropTable('device_config').execute();
}
