import type { Kysely } from 'kysely';

/*
 * The MQTT gateway: which server node holds a device's connection, the nodes' heartbeats, and an
 * index to find a device by SN alone.
 */

// Migrations describe a schema at one point in time, so they use an untyped handle.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  // Set while a node's embedded broker holds the device's connection, null otherwise: the
  // devices of a node that stopped without saying so are found and set offline by it.
  await db.schema.alterTable('device').addColumn('node_id', 'varchar(128)').execute();
  await db.schema.createIndex('idx_device_node').on('device').column('node_id').execute();
  // "Is this SN registered under another token?" at every first connect, and the external
  // broker's messages, which name the device by SN only: the other SN indexes lead with the
  // company or the token.
  await db.schema.createIndex('idx_device_sn').on('device').column('sn').execute();

  await db.schema
    .createTable('gateway_node')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('gateway_node').execute();
  await db.schema.dropIndex('idx_device_sn').execute();
  await db.schema.dropIndex('idx_device_node').execute();
  await db.schema.alterTable('device').dropColumn('node_id').execute();
}
