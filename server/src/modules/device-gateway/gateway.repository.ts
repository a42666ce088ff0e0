import { sql, type CompiledQuery, type Transaction } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import type { Database, DeviceSessionTable, DeviceTable } from '../../platform/db/schema.js';
import { readSetting, sharedSecret } from '../../platform/db/settings.js';
import { BatchedLookup } from '../../platform/batched-lookup.js';
import {
  inIds,
  insertRows,
  numbered,
  placeholderOf,
  RowsStatement,
  type Column,
  type ColumnType,
  type Placeholder,
} from '../../platform/db/rows-statement.js';

/** The columns presence changes, plus what a `device.live` message needs to route them. */
const LIVE_COLUMNS = [
  'id',
  'company_id',
  'sn',
  'group_id',
  'status',
  'ip',
  'series',
  'model',
  'version',
  'last_seen_at',
  'last_connect_at',
  'last_disconnect_at',
  'disconnect_reason',
  'restart_kind',
  'restart_until',
] as const;

export type LiveRow = Pick<DeviceTable, (typeof LIVE_COLUMNS)[number]>;

export type PresenceValues = Partial<
  Pick<
    DeviceTable,
    | 'status'
    | 'ip'
    | 'series'
    | 'model'
    | 'version'
    | 'last_seen_at'
    | 'last_connect_at'
    | 'last_disconnect_at'
    | 'disconnect_reason'
  > & { node_id: string | null }
>;

export interface PresenceChange {
  deviceId: string;
  companyId: string;
  values: PresenceValues;
  /**
   * Apply only while the row names this node and no newer connection: a connection that ends
   * late must not set offline a device that has since connected to another node.
   */
  guard?: { nodeId: string; connectedAt: number };
}

/** A connection that ended: its session row is closed with the time and the reason. */
export interface SessionClose {
  id: string;
  disconnectedAt: number;
  reason: string;
}

/** What one presence batch writes besides the device rows. */
export interface SessionWrites {
  opened: DeviceSessionTable[];
  closed: SessionClose[];
}

/** Devices looked up per statement by id. */
const IDS_PER_QUERY = 500;

const SESSION_COLUMNS: Column[] = [
  ['id', 'varchar'],
  ['company_id', 'varchar'],
  ['device_id', 'varchar'],
  ['connected_at', 'bigint'],
  ['disconnected_at', 'bigint'],
  ['reason', 'varchar'],
  ['ip', 'varchar'],
  ['node_id', 'varchar'],
];

/** What a guarded change is checked against (see `PresenceChange.guard`). */
const GUARD_COLUMNS: Column[] = [
  ['guard_node', 'varchar'],
  ['guard_at', 'bigint'],
];

type PresenceColumn = keyof PresenceValues;
const PRESENCE_COLUMN_TYPES: Record<PresenceColumn, ColumnType> = {
  status: 'varchar',
  ip: 'varchar',
  series: 'varchar',
  model: 'varchar',
  version: 'varchar',
  last_seen_at: 'bigint',
  last_connect_at: 'bigint',
  last_disconnect_at: 'bigint',
  disconnect_reason: 'varchar',
  node_id: 'varchar',
};

const LIVE_RETURNING = LIVE_COLUMNS.join(', ');

/**
 * A data-changing statement over a list of typed rows: `values` names the rows (`v (v_id, ...)
 * as (values ...)`) and `change` reads them by that name. Alone, it runs as `with values change`;
 * on PostgreSQL several run as one statement, each `change` a common table expression.
 */
interface RowsChange {
  values: string;
  change: string;
}

/** Builds a part over `rows` and makes it a statement of its own. */
function alone<T>(
  build: (rows: T[], statement: RowsStatement, v: string) => RowsChange,
  rows: T[],
  placeholder: Placeholder,
): CompiledQuery {
  const statement = new RowsStatement(placeholder);
  const part = build(rows, statement, 'v');
  return statement.compile(`with ${part.values} ${part.change}`);
}

/** Changes that all set the same columns (and are all guarded, or none), rows named `v`. */
function presenceUpdate(
  changes: PresenceChange[],
  statement: RowsStatement,
  v: string,
): RowsChange {
  const [first] = changes;
  const columns = Object.keys(first?.values ?? {}) as PresenceColumn[];
  for (const column of columns) {
    // Names go into the text: only the columns presence owns.
    if (!Object.hasOwn(PRESENCE_COLUMN_TYPES, column)) throw new Error(`not a presence column`);
  }
  const guarded = first?.guard !== undefined;
  const types: Column[] = [
    ['id', 'varchar'],
    ['company_id', 'varchar'],
    ...columns.map((c): Column => [c, PRESENCE_COLUMN_TYPES[c]]),
    ...(guarded ? GUARD_COLUMNS : []),
  ];
  const rows = changes.map((change) => [
    change.deviceId,
    change.companyId,
    ...columns.map((c) => change.values[c] ?? null),
    ...(guarded ? [change.guard?.nodeId, change.guard?.connectedAt] : []),
  ]);
  const guard = guarded
    ? ` and device.node_id = ${v}.v_guard_node
        and (device.last_connect_at is null or device.last_connect_at <= ${v}.v_guard_at)`
    : '';
  return {
    values: statement.table(v, types, rows),
    change: `update device set ${columns.map((c) => `${c} = ${v}.v_${c}`).join(', ')}
    from ${v}
    where device.id = ${v}.v_id and device.company_id = ${v}.v_company_id${guard}
    returning ${LIVE_RETURNING}`,
  };
}

/** Inserts sessions of devices that still exist (one deleted since it connected has none). */
function sessionInsert(
  sessions: DeviceSessionTable[],
  statement: RowsStatement,
  v: string,
): RowsChange {
  const rows = sessions.map((r) => [
    r.id,
    r.company_id,
    r.device_id,
    r.connected_at,
    r.disconnected_at,
    r.reason,
    r.ip,
    r.node_id,
  ]);
  return {
    values: statement.table(v, SESSION_COLUMNS, rows),
    change: `insert into device_session
      (id, company_id, device_id, connected_at, disconnected_at, reason, ip, node_id)
    select v_id, v_company_id, v_device_id, v_connected_at, v_disconnected_at, v_reason, v_ip,
      v_node_id
    from ${v}
    where exists (select 1 from device where device.id = ${v}.v_device_id)`,
  };
}

/** Closes sessions by id, one statement for many; a session closed already stays as it was. */
function sessionClose(closes: SessionClose[], statement: RowsStatement, v: string): RowsChange {
  const rows = closes.map((c) => [c.id, c.disconnectedAt, c.reason]);
  return {
    values: statement.table(
      v,
      [
        ['id', 'varchar'],
        ['at', 'bigint'],
        ['reason', 'varchar'],
      ],
      rows,
    ),
    // Found by its key alone, a closed session kept as it is by the values: with `disconnected_at
    // is null` in the WHERE, SQLite went through every open session by that column's index and
    // looked each up among the rows (2 s a batch with 10,000 devices online).
    change: `update device_session set
      disconnected_at = coalesce(device_session.disconnected_at, ${v}.v_at),
      reason = case when device_session.disconnected_at is null then ${v}.v_reason
        else device_session.reason end
    from ${v}
    where device_session.id = ${v}.v_id`,
  };
}

/**
 * A presence batch as SQLite runs it, in one transaction: an update per shape of change (each
 * returns the rows as persisted), then the sessions opened and closed.
 */
export function presenceStatements(
  changes: PresenceChange[],
  sessions: SessionWrites,
  placeholder: Placeholder,
): { updates: CompiledQuery[]; sessions: CompiledQuery[] } {
  const { opened, closed } = sessions;
  return {
    updates: byShape(changes).map((group) => alone(presenceUpdate, group, placeholder)),
    sessions: [
      ...(opened.length > 0 ? [alone(sessionInsert, opened, placeholder)] : []),
      ...(closed.length > 0 ? [alone(sessionClose, closed, placeholder)] : []),
    ],
  };
}

/** Changes with the same columns set (and guarded or not) go into one statement. */
function byShape(changes: PresenceChange[]): PresenceChange[][] {
  const shapes = new Map<string, PresenceChange[]>();
  for (const change of changes) {
    const columns = Object.keys(change.values).sort().join(',');
    const shape = change.guard ? `${columns}|guarded` : columns;
    shapes.set(shape, [...(shapes.get(shape) ?? []), change]);
  }
  return [...shapes.values()];
}

/** When and why a node's devices were set offline together. */
export type NodeRelease = Required<
  Pick<PresenceValues, 'last_disconnect_at' | 'disconnect_reason'>
>;

/** Closes a node's open connections and sets its devices offline; returns them as persisted. */
async function offlineIn(
  trx: Transaction<Database>,
  nodeId: string,
  values: NodeRelease,
): Promise<LiveRow[]> {
  await trx
    .updateTable('device_session')
    .set({ disconnected_at: values.last_disconnect_at, reason: values.disconnect_reason })
    .where('node_id', '=', nodeId)
    .where('disconnected_at', 'is', null)
    .execute();
  return trx
    .updateTable('device')
    .set({
      ...values,
      status: 'offline',
      node_id: null,
      last_seen_at: values.last_disconnect_at,
    })
    .where('node_id', '=', nodeId)
    .returning(LIVE_COLUMNS)
    .execute();
}

/** What a CONNECT needs of the token of its key, and of that token's device with its SN. */
export interface LoginRow {
  token_id: string;
  token_code: string;
  company_id: string;
  owner_id: string;
  token_enabled: number;
  auto_register: number;
  company_status: number;
  owner_name: string;
  owner_org_code: string | null;
  device_id: string | null;
  device_enabled: number | null;
}

/**
 * Logins arriving within this long (at most this many) are looked up in one statement. A CONNACK
 * waits for it, so it is short; at 2 ms a storm's batches held about 15 logins, at 5 ms about 40.
 */
const LOGIN_BATCH_WAIT_MS = 5;
const LOGIN_BATCH_MAX = 200;

/** The columns of an auto-registered device's row (`newDeviceRow`); the others keep defaults. */
const REGISTERED_COLUMNS: [keyof DeviceTable & string, ColumnType][] = [
  ['id', 'varchar'],
  ['company_id', 'varchar'],
  ['token_id', 'varchar'],
  ['owner_id', 'varchar'],
  ['sys_org_code', 'varchar'],
  ['sn', 'varchar'],
  ['name', 'varchar'],
  ['series', 'varchar'],
  ['model', 'varchar'],
  ['version', 'varchar'],
  ['group_id', 'varchar'],
  ['remark', 'varchar'],
  ['location', 'varchar'],
  ['enabled', 'bigint'],
  ['status', 'varchar'],
  ['ip', 'varchar'],
  ['last_seen_at', 'bigint'],
  ['last_connect_at', 'bigint'],
  ['last_disconnect_at', 'bigint'],
  ['disconnect_reason', 'varchar'],
  ['create_by', 'varchar'],
  ['create_time', 'bigint'],
  ['update_time', 'bigint'],
];

/** A login's key in a batch: the key hash (hex, so never a line break), a line break, the SN. */
const loginKey = (keyHash: string, sn: string) => `${keyHash}\n${sn}`;

/**
 * The logins of many (key hash, SN) pairs in one statement: for each pair, the token of the key
 * (with its company's status and its owner) and the device of that token with the SN, if any.
 */
function loginsQuery(keys: string[], placeholder: Placeholder): CompiledQuery {
  const statement = new RowsStatement(placeholder);
  const rows = keys.map((key) => {
    const at = key.indexOf('\n');
    return [key.slice(0, at), key.slice(at + 1)];
  });
  const pairs = statement.table(
    'v',
    [
      ['key', 'varchar'],
      ['sn', 'varchar'],
    ],
    rows,
  );
  return statement.compile(`with ${pairs}
    select v.v_key, v.v_sn, t.id as token_id, t.code as token_code, t.company_id, t.owner_id,
      t.enabled as token_enabled, t.auto_register, c.status as company_status,
      u.username as owner_name, u.org_code as owner_org_code,
      d.id as device_id, d.enabled as device_enabled
    from v
    inner join device_token t on t.key_hash = v.v_key
    inner join sys_company c on c.id = t.company_id
    inner join sys_user u on u.id = t.owner_id
    left join device d on d.token_id = t.id and d.sn = v.v_sn`);
}

export class GatewayRepository {
  /**
   * A connect storm's logins, looked up together: on PostgreSQL one statement per login took one
   * pool connection each, and hundreds waiting for the pool timed out (valid devices refused).
   */
  private readonly logins = new BatchedLookup<string, LoginRow>(
    async (keys) => {
      const { rows } = await this.db.executeQuery<LoginRow & { v_key: string; v_sn: string }>(
        loginsQuery(keys, placeholderOf(this.db)),
      );
      return new Map(rows.map((row) => [loginKey(row.v_key, row.v_sn), row]));
    },
    { waitMs: LOGIN_BATCH_WAIT_MS, maxKeys: LOGIN_BATCH_MAX },
  );

  constructor(private readonly db: Db) {}

  /**
   * Everything a CONNECT needs: the token of the key (with its company's status and its owner)
   * and the device of that token with the SN, if any. Read in one statement with the logins
   * that arrive at the same time.
   */
  login(keyHash: string, sn: string): Promise<LoginRow | undefined> {
    return this.logins.get(loginKey(keyHash, sn));
  }

  /**
   * The token with this public code and its device with this SN, if any: whom a device address
   * names (refusals are logged there; an external broker's uplinks are routed there).
   */
  tagTarget(tokenCode: string, sn: string) {
    return this.db
      .selectFrom('device_token as t')
      .innerJoin('sys_user as u', 'u.id', 't.owner_id')
      .leftJoin('device as d', (join) => join.onRef('d.token_id', '=', 't.id').on('d.sn', '=', sn))
      .select([
        't.id as token_id',
        't.company_id',
        'u.username as owner_name',
        'd.id as device_id',
        'd.enabled as device_enabled',
      ])
      .where('t.code', '=', tokenCode)
      .executeTakeFirst();
  }

  /**
   * The devices of this token that hold any of these SNs. On PostgreSQL, one lookup of the
   * (token, SN) key per SN, in a subquery the planner may not flatten (`offset 0`): written as
   * `sn = any(…)`, a table not analyzed since it was nearly empty (the first storm of new devices)
   * was planned as a bitmap AND with the SN trigram index (52 ms a statement against 0.2 ms), and
   * since that index is of `lower(sn)`, as a scan of all the token's devices with the SNs as a
   * filter (1.4 ms at 8,000 devices against 0.03 ms, growing with the token).
   */
  async devicesOfToken(tokenId: string, sns: string[]) {
    if (sns.length === 0) return [];
    if (placeholderOf(this.db) === numbered) {
      const { rows } = await sql<{ id: string; sn: string }>`
        select d.id, d.sn from unnest(cast(${sns} as varchar[])) as s(sn)
        cross join lateral (
          select id, sn from device where token_id = ${tokenId} and sn = s.sn offset 0
        ) as d`.execute(this.db);
      return rows;
    }
    return this.db
      .selectFrom('device')
      .select(['id', 'sn'])
      .where('token_id', '=', tokenId)
      .where(inIds(this.db, 'sn', sns))
      .execute();
  }

  /**
   * Auto-registered devices, in one statement whatever their number (`insertRows`): as Kysely's
   * multi-row insert, each batch of a storm was 11,500 parameters to compile, and a statement
   * text of its own for each batch size.
   */
  async insertDevices(rows: DeviceTable[]): Promise<void> {
    await this.db.executeQuery(
      insertRows(placeholderOf(this.db), 'device', REGISTERED_COLUMNS, rows),
    );
  }

  /**
   * One transaction for a batch of presence changes (on PostgreSQL one statement, see
   * `applyPresenceAtOnce`); returns the rows as persisted (a guarded change that no longer
   * applies returns nothing). Changes that set the same columns go to the database together, as
   * one `UPDATE ... FROM` a table of their rows: preparing and running one statement per device
   * cost more than the rest of a connect.
   */
  applyPresence(changes: PresenceChange[], sessions: SessionWrites): Promise<LiveRow[]> {
    const placeholder = placeholderOf(this.db);
    if (placeholder === numbered) return this.applyPresenceAtOnce(changes, sessions);
    const statements = presenceStatements(changes, sessions, placeholder);
    return this.db.transaction().execute(async (trx) => {
      const rows: LiveRow[] = [];
      for (const update of statements.updates) {
        rows.push(...(await trx.executeQuery<LiveRow>(update)).rows);
      }
      for (const write of statements.sessions) await trx.executeQuery(write);
      return rows;
    });
  }

  /**
   * PostgreSQL: a batch is one statement, its updates and inserts common table expressions, so
   * one round trip instead of a transaction's four to six. While a telemetry storm keeps the
   * event loop busy, each round trip waited about a second for its turn, and a device's
   * disconnect reached the console 10 s late.
   */
  private async applyPresenceAtOnce(
    changes: PresenceChange[],
    sessions: SessionWrites,
  ): Promise<LiveRow[]> {
    const statement = new RowsStatement(numbered);
    const updates = byShape(changes).map((group, i) => presenceUpdate(group, statement, `v${i}`));
    const parts = updates.map((part, i) => ({ part, name: `p${i}` }));
    if (sessions.opened.length > 0) {
      parts.push({ part: sessionInsert(sessions.opened, statement, 'vo'), name: 'so' });
    }
    if (sessions.closed.length > 0) {
      parts.push({ part: sessionClose(sessions.closed, statement, 'vc'), name: 'sc' });
    }
    if (parts.length === 0) return [];
    const ctes = parts.map(({ part, name }) => `${part.values}, ${name} as (${part.change})`);
    const live = updates.length
      ? updates.map((_, i) => `select ${LIVE_RETURNING} from p${i}`).join(' union all ')
      : `select ${LIVE_RETURNING} from device where false`;
    const { rows } = await this.db.executeQuery<LiveRow>(
      statement.compile(`with ${ctes.join(', ')} ${live}`),
    );
    return rows;
  }

  /**
   * Sets offline every device a node holds, in every company: the node stopped cleanly, or it
   * restarted (its connections cannot have survived).
   */
  offlineByNode(nodeId: string, values: NodeRelease): Promise<LiveRow[]> {
    return this.db.transaction().execute((trx) => offlineIn(trx, nodeId, values));
  }

  /**
   * Forgets a node silent since before `seenBefore` and sets offline the devices it held, in one
   * transaction; null when it beat since (or another node released it first). A heartbeat of the
   * node waits for the transaction and then finds its row gone, so the node learns it was taken
   * for dead after its devices were set offline, never before (see `heartbeat`).
   */
  releaseStaleNode(
    nodeId: string,
    seenBefore: number,
    values: NodeRelease,
  ): Promise<LiveRow[] | null> {
    return this.db.transaction().execute(async (trx) => {
      const deleted = await trx
        .deleteFrom('gateway_node')
        .where('id', '=', nodeId)
        .where('seen_at', '<', seenBefore)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) return null;
      return offlineIn(trx, nodeId, values);
    });
  }

  /** Records the restart the platform expects of a device; returns its row as persisted. */
  expectRestart(
    deviceId: string,
    expected: { kind: string; from: number; until: number },
  ): Promise<LiveRow[]> {
    return this.db
      .updateTable('device')
      .set({
        restart_kind: expected.kind,
        restart_from: expected.from,
        restart_until: expected.until,
      })
      .where('id', '=', deviceId)
      .returning(LIVE_COLUMNS)
      .execute();
  }

  /** Of these SNs, those an operator removed from the token (auto-registration refuses them). */
  async removedSns(tokenId: string, sns: string[]): Promise<Set<string>> {
    if (sns.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('device_removed_sn')
      .select('sn')
      .where('token_id', '=', tokenId)
      .where(inIds(this.db, 'sn', sns))
      .execute();
    return new Set(rows.map((r) => r.sn));
  }

  /**
   * Records that the node is alive; false when its row was not there: new, or deleted by another
   * node that took this one for dead (and set its devices offline).
   */
  async heartbeat(nodeId: string, now: number): Promise<boolean> {
    const updated = await this.db
      .updateTable('gateway_node')
      .set({ seen_at: now })
      .where('id', '=', nodeId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) > 0) return true;
    await this.db
      .insertInto('gateway_node')
      .values({ id: nodeId, seen_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ seen_at: now }))
      .execute();
    return false;
  }

  /** What admits these devices' connections now, by device id (a deleted device is absent). */
  async admission(deviceIds: string[]) {
    const rows =
      deviceIds.length === 0
        ? []
        : await this.db
            .selectFrom('device as d')
            .innerJoin('device_token as t', 't.id', 'd.token_id')
            .innerJoin('sys_company as c', 'c.id', 'd.company_id')
            .select([
              'd.id',
              'd.enabled as device_enabled',
              't.enabled as token_enabled',
              't.key_hash',
              'c.status as company_status',
            ])
            .where('d.id', 'in', deviceIds)
            .execute();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The node that holds a device's connection, and when that node last wrote its heartbeat. */
  async nodeOfDevice(
    deviceId: string,
  ): Promise<{ nodeId: string | null; seenAt: number | null } | undefined> {
    const row = await this.db
      .selectFrom('device')
      .leftJoin('gateway_node', 'gateway_node.id', 'device.node_id')
      .select(['device.node_id', 'gateway_node.seen_at'])
      .where('device.id', '=', deviceId)
      .executeTakeFirst();
    return row && { nodeId: row.node_id ?? null, seenAt: row.seen_at };
  }

  async staleNodes(seenBefore: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom('gateway_node')
      .select('id')
      .where('seen_at', '<', seenBefore)
      .execute();
    return rows.map((r) => r.id);
  }

  /** Forgets a node, unless it came back since it was found stale. */
  async deleteNode(nodeId: string, seenBefore: number): Promise<void> {
    await this.db
      .deleteFrom('gateway_node')
      .where('id', '=', nodeId)
      .where('seen_at', '<', seenBefore)
      .execute();
  }

  /** What an offline alert needs to know of the devices, and whether they are still offline. */
  async alertTargets(ids: string[]) {
    const rows = [];
    for (let i = 0; i < ids.length; i += IDS_PER_QUERY) {
      rows.push(
        ...(await this.db
          .selectFrom('device')
          .select([
            'id',
            'company_id',
            'owner_id',
            'sn',
            'name',
            'status',
            'last_connect_at',
            'restart_from',
            'restart_until',
          ])
          .where('id', 'in', ids.slice(i, i + IDS_PER_QUERY))
          .execute()),
      );
    }
    return rows;
  }

  readSetting(key: string): Promise<string | undefined> {
    return readSetting(this.db, key);
  }

  sharedSecret(key: string, now: number): Promise<string> {
    return sharedSecret(this.db, key, now);
  }
}
