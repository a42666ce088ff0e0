/**
 * The telemetry writer's store alone: `DeviceDataRepository.writeRows` on a fresh, migrated
 * database whose `device_telemetry` already holds `--prefill` rows, fed batches of samples from
 * `--devices` devices in random order (as a storm's arrive), one batch at a time. Reports rows a
 * second and this process's CPU time (on SQLite the whole write; on PostgreSQL the client's share
 * only). A/B: run it from a worktree of the other commit.
 *
 *     npx tsx bench/telemetry-write.ts [--db sqlite|pg] [--batch 1700] [--rows 187000]
 *       [--prefill 760000] [--devices 19000] [--runs 3] [--pg-url postgres://…/postgres]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { createDatabase, type DatabaseHandle } from '../server/src/platform/db/database.js';
import { migrateToLatest } from '../server/src/platform/db/migrator.js';
import { createPgDatabase } from './pg-database.js';
import {
  DeviceDataRepository,
  type TelemetrySample,
} from '../server/src/modules/device-data/device-data.repository.js';

const { values: flags } = parseArgs({
  options: {
    db: { type: 'string', default: 'sqlite' },
    batch: { type: 'string', default: '1700' },
    rows: { type: 'string', default: '187000' },
    prefill: { type: 'string', default: '760000' },
    devices: { type: 'string', default: '19000' },
    runs: { type: 'string', default: '3' },
    'pg-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const BATCH = Number(flags.batch);
const ROWS = Number(flags.rows);
const PREFILL = Number(flags.prefill);
const DEVICES = Number(flags.devices);
const T0 = 1_795_940_000_000;
const deviceId = (n: number) => `dev${String(n).padStart(29, '0')}`;

/** A fresh database of the chosen kind, migrated, and how to remove it. */
async function freshDatabase(): Promise<{ handle: DatabaseHandle; remove: () => Promise<void> }> {
  if (flags.db === 'pg') {
    const pg = await createPgDatabase(flags['pg-url'], 'telemetry_write');
    const handle = createDatabase({ dialect: 'postgres', url: pg.url });
    return {
      handle,
      remove: async () => {
        await handle.db.destroy();
        await pg.drop();
      },
    };
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'blrms-tw-'));
  const handle = createDatabase({ dialect: 'sqlite', file: path.join(dir, 'blrms.db') });
  return {
    handle,
    remove: async () => {
      await handle.db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `--prefill` rows spread over the devices, written by the database itself. */
async function prefill({ db, dialect }: DatabaseHandle): Promise<void> {
  const values = `'{"temp":21.5,"hum":40,"rssi":-70,"v":12.1}'`;
  if (dialect === 'postgres') {
    await sql
      .raw(
        `insert into device_telemetry (device_id, ts, received_at, values_json)
        select 'dev' || lpad((floor(random() * ${DEVICES}))::int::text, 29, '0'), ${T0} + g, ${T0} + g, ${values}
        from generate_series(1, ${PREFILL}) g`,
      )
      .execute(db);
    await sql`vacuum analyze device_telemetry`.execute(db);
    return;
  }
  await sql
    .raw(
      `with recursive g(n) as (select 1 union all select n + 1 from g where n < ${PREFILL})
      insert into device_telemetry (device_id, ts, received_at, values_json)
      select 'dev' || printf('%029d', abs(random()) % ${DEVICES}), ${T0} + n, ${T0} + n, ${values}
      from g`,
    )
    .execute(db);
  await sql`pragma wal_checkpoint(truncate)`.execute(db);
}

function batches(): TelemetrySample[][] {
  let seed = 1;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const out: TelemetrySample[][] = [];
  for (let n = 0; n < ROWS;) {
    const batch: TelemetrySample[] = [];
    for (let i = 0; i < BATCH && n < ROWS; i += 1, n += 1) {
      const ts = T0 + PREFILL + 1 + n;
      batch.push({
        device_id: deviceId(Math.floor(random() * DEVICES)),
        ts,
        received_at: ts,
        values: { temp: 21.5 + (n % 7), hum: 40 + (n % 13), rssi: -70 - (n % 9), v: 12.1 },
      });
    }
    out.push(batch);
  }
  return out;
}

for (let run = 1; run <= Number(flags.runs); run += 1) {
  const { handle, remove } = await freshDatabase();
  try {
    await migrateToLatest(handle.db);
    await prefill(handle);
    const repository = new DeviceDataRepository(handle.db, handle.dialect);
    const work = batches();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (const batch of work) await repository.writeRows(batch, []);
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    console.log(
      `${flags.db} run ${run}: ${ROWS} rows in batches of ${BATCH} onto ${PREFILL}: ${Math.round(ms)} ms, ` +
        `${Math.round(ROWS / (ms / 1000))} rows/s; this process ${Math.round(used.user / 1000)} ms user, ` +
        `${Math.round(used.system / 1000)} ms system`,
    );
  } finally {
    await remove();
  }
}
