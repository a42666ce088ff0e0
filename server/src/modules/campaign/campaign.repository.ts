import { CAMPAIGN_ACTIVE_STATES, type TCampaignQuery } from '@blrms/contracts';
import {
  sql,
  type RawBuilder,
  type Transaction,
  type UpdateQueryBuilder,
  type UpdateResult,
} from 'kysely';
import type { DataRuleFilter } from '../../platform/auth/data-rules.js';
import type { Db, Dialect } from '../../platform/db/database.js';
import { dataRuleWhere } from '../../platform/db/data-rule-sql.js';
import { containing } from '../../platform/db/like.js';
import { inIds } from '../../platform/db/rows-statement.js';
import type { CampaignDeviceTable, CampaignTable, Database } from '../../platform/db/schema.js';
import { scoped } from '../../platform/db/scoped.js';
import { DEVICE_RULE_COLUMNS } from '../device/stats-columns.rules.js';
import { OPEN_STATES } from './campaign-plan.rules.js';

/** What the engine reads of a device's row when the device reports or comes back. */
const JOB_COLUMNS = [
  'campaign_device.campaign_id',
  'campaign_device.device_id',
  'campaign_device.company_id',
  'campaign_device.sn',
  'campaign_device.wave',
  'campaign_device.state',
  'campaign_device.progress',
  'campaign_device.job_id',
  'campaign_device.log_id',
  'campaign_device.deadline',
  'campaign_device.update_time',
] as const;

/** Ids per `in (...)` list and rows per multi-row insert: well under both databases' limits. */
const BATCH = 500;
const ACTIVE = [...CAMPAIGN_ACTIVE_STATES];
/** Campaign states the engine still works on: not yet ended. */
const UNFINISHED = ['scheduled', 'running', 'paused'];

export interface TargetFilter {
  ids?: string[];
  groupId?: string;
  series?: string;
  /** Devices with any of these tags. */
  tags?: string[];
  onlineOnly: boolean;
}

export interface TargetDevice {
  id: string;
  sn: string;
  series: string;
  version: string | null;
  status: string;
}

/** A device's row in a campaign, with what the engine needs of the campaign. */
export interface OpenDeviceRow {
  campaign_id: string;
  device_id: string;
  company_id: string;
  sn: string;
  wave: number;
  state: string;
  progress: number | null;
  job_id: string | null;
  log_id: string | null;
  deadline: number | null;
  update_time: number;
}

/** A device claimed for notification, with what its downlink and its log entry need. */
export interface ClaimedDevice {
  device_id: string;
  sn: string;
  /** The public code of the device's token: its address is `{token_code}:{sn}`. */
  token_code: string;
  series: string;
  job_id: string;
  owner_name: string | null;
}

/** What the engine and the controls change of a campaign. */
export type CampaignChange = Partial<
  Pick<
    CampaignTable,
    | 'state'
    | 'paused_reason'
    | 'end_time'
    | 'current_wave'
    | 'wave_start_time'
    | 'gate'
    | 'gate_until'
    | 'approved_wave'
    | 'accepted_wave'
    | 'threshold_wave'
  >
>;

/** What a state change was decided on: see {@link CampaignRepository.setState}. */
export interface SeenState {
  wave?: number;
  gate?: string | null;
  approvedBelow?: number;
}

export interface StateCount {
  state: string;
  wave: number;
  n: number;
}

type Tx = Transaction<Database> | Db;

export class CampaignRepository {
  constructor(
    private readonly db: Db,
    private readonly dialect: Dialect,
  ) {}

  // ---------------------------------------------------------------- targets

  /** Of `ids`, those of the company (whatever the data rules say). */
  async companyDeviceIds(companyId: string, ids: string[]): Promise<Set<string>> {
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += BATCH) {
      const rows = await scoped(this.db, companyId)
        .selectFrom('device')
        .select('device.id')
        .where('device.id', 'in', ids.slice(i, i + BATCH))
        .execute();
      for (const r of rows) found.add(r.id);
    }
    return found;
  }

  async groupExists(companyId: string, groupId: string): Promise<boolean> {
    const row = await scoped(this.db, companyId)
      .selectFrom('device_group')
      .select('device_group.id')
      .where('device_group.id', '=', groupId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The devices a target names that the caller may see (company and data rules). */
  async targetDevices(
    companyId: string,
    filter: TargetFilter,
    rules: DataRuleFilter,
  ): Promise<TargetDevice[]> {
    const batches = filter.ids
      ? Array.from({ length: Math.ceil(filter.ids.length / BATCH) }, (_, i) =>
          filter.ids!.slice(i * BATCH, (i + 1) * BATCH),
        )
      : [undefined];
    const found: TargetDevice[] = [];
    for (const ids of batches) {
      let query = scoped(this.db, companyId)
        .selectFrom('device')
        .select(['device.id', 'device.sn', 'device.series', 'device.version', 'device.status']);
      if (ids) query = query.where('device.id', 'in', ids);
      if (filter.groupId) query = query.where('device.group_id', '=', filter.groupId);
      if (filter.series) query = query.where('device.series', '=', filter.series);
      if (filter.tags) {
        const tagged = scoped(this.db, companyId)
          .selectFrom('device_tag')
          .select('device_tag.device_id')
          .where('device_tag.tag', 'in', filter.tags);
        query = query.where('device.id', 'in', tagged);
      }
      if (filter.onlineOnly) query = query.where('device.status', '=', 'online');
      const where = dataRuleWhere(rules, DEVICE_RULE_COLUMNS);
      if (where) query = query.where(where);
      found.push(...(await query.execute()));
    }
    return found;
  }

  // ---------------------------------------------------------------- campaigns

  /** A new campaign and its devices, all of the campaign's company. */
  async insert(campaign: CampaignTable, devices: CampaignDeviceTable[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const company = scoped(trx, campaign.company_id);
      await company.insertInto('campaign', campaign).execute();
      for (let i = 0; i < devices.length; i += BATCH) {
        await company.insertInto('campaign_device', devices.slice(i, i + BATCH)).execute();
      }
    });
  }

  findInCompany(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('campaign')
      .selectAll('campaign')
      .where('campaign.id', '=', id)
      .executeTakeFirst();
  }

  find(id: string) {
    return this.db
      .selectFrom('campaign')
      .selectAll('campaign')
      .where('campaign.id', '=', id)
      .executeTakeFirst();
  }

  async page(companyId: string, query: TCampaignQuery) {
    let base = scoped(this.db, companyId).selectFrom('campaign');
    if (query.kind) base = base.where('campaign.kind', '=', query.kind);
    if (query.state) base = base.where('campaign.state', '=', query.state);
    if (query.name) {
      base = base.where(sql<boolean>`campaign.name like ${containing(query.name)} escape '\\'`);
    }
    const [records, total] = await Promise.all([
      base
        .selectAll('campaign')
        .orderBy('campaign.create_time', query.order)
        .orderBy('campaign.id', query.order)
        .limit(query.pageSize)
        .offset((query.pageNo - 1) * query.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { records, total: Number(total?.n ?? 0) };
  }

  /**
   * Finished campaigns keep their history but stop pointing at a firmware being deleted (the
   * foreign key would refuse the delete), in the deletion's transaction.
   */
  async releaseFirmware(companyId: string, firmwareId: string, trx: Db): Promise<void> {
    await scoped(trx, companyId)
      .updateTable('campaign')
      .set({ firmware_id: null })
      .where('firmware_id', '=', firmwareId)
      .where('state', 'not in', UNFINISHED)
      .execute();
  }

  /**
   * Campaigns the engine works on: scheduled ones start on time, running ones start devices,
   * paused ones still watch theirs.
   */
  unfinished() {
    return this.db.selectFrom('campaign').selectAll().where('state', 'in', UNFINISHED).execute();
  }

  /**
   * Changes a campaign only from the states given and, when named, the wave it was seen on, the
   * gate it was seen at and an approval not yet given, so that two nodes (or a node and an
   * operator) acting on what they read cannot both act; false when it had changed.
   */
  setState(
    id: string,
    from: string[],
    values: CampaignChange,
    seen: SeenState = {},
  ): Promise<boolean> {
    return this.changeState(this.db.updateTable('campaign'), id, from, values, seen);
  }

  /** {@link setState} of a campaign of the company, as a user's control asks it. */
  setStateInCompany(
    companyId: string,
    id: string,
    from: string[],
    values: CampaignChange,
    seen: SeenState = {},
  ): Promise<boolean> {
    return this.changeState(
      scoped(this.db, companyId).updateTable('campaign'),
      id,
      from,
      values,
      seen,
    );
  }

  private async changeState(
    update: UpdateQueryBuilder<Database, 'campaign', 'campaign', UpdateResult>,
    id: string,
    from: string[],
    values: CampaignChange,
    seen: SeenState,
  ): Promise<boolean> {
    let query = update.set(values).where('id', '=', id).where('state', 'in', from);
    if (seen.wave !== undefined) query = query.where('current_wave', '=', seen.wave);
    if (seen.gate !== undefined) {
      query =
        seen.gate === null ? query.where('gate', 'is', null) : query.where('gate', '=', seen.gate);
    }
    if (seen.approvedBelow !== undefined) {
      query = query.where('approved_wave', '<', seen.approvedBelow);
    }
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** Releases the offline devices of the waves up to `wave` from holding the next wave back. */
  async release(id: string, wave: number): Promise<boolean> {
    const result = await this.db
      .updateTable('campaign')
      .set({ released_wave: wave })
      .where('id', '=', id)
      .where('state', '=', 'running')
      .where('current_wave', '=', wave)
      .where('released_wave', '<', wave)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  // ---------------------------------------------------------------- campaign devices

  /** Devices by state and wave: one index-only scan of `(campaign_id, state, wave)`. */
  async counts(campaignIds: string[]): Promise<Map<string, StateCount[]>> {
    const byCampaign = new Map<string, StateCount[]>(campaignIds.map((id) => [id, []]));
    if (campaignIds.length === 0) return byCampaign;
    const rows = await this.db
      .selectFrom('campaign_device')
      .select(['campaign_id', 'state', 'wave', (eb) => eb.fn.countAll<number>().as('n')])
      .where('campaign_id', 'in', campaignIds)
      .groupBy(['campaign_id', 'state', 'wave'])
      .execute();
    for (const r of rows) {
      byCampaign.get(r.campaign_id)?.push({ state: r.state, wave: r.wave, n: Number(r.n) });
    }
    return byCampaign;
  }

  /**
   * Queued devices of the waves up to `uptoWave` whose device is online or offline (they start
   * when it returns). Read from the campaign's queued devices with a
   * key lookup of each device: starting from the company's offline devices instead was 50 times
   * slower on PostgreSQL without table statistics (a fresh or just-grown table), when the planner
   * joins on the wrong index.
   */
  async queued(campaignId: string, uptoWave: number, presence: 'online' | 'offline') {
    const row = await this.db
      .selectFrom('campaign_device')
      .innerJoin('device', 'device.id', 'campaign_device.device_id')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('campaign_device.campaign_id', '=', campaignId)
      .where('campaign_device.state', '=', 'queued')
      .where('campaign_device.wave', '<=', uptoWave)
      .where('device.status', presence === 'online' ? '=' : '<>', 'online')
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async devicePage(
    companyId: string,
    campaignId: string,
    filter: { state?: string; sn?: string },
    rules: DataRuleFilter,
    page: { pageNo: number; pageSize: number; order: 'asc' | 'desc' },
  ) {
    let base = scoped(this.db, companyId)
      .selectFrom('campaign_device')
      .innerJoin('device', 'device.id', 'campaign_device.device_id')
      .where('campaign_device.campaign_id', '=', campaignId);
    if (filter.state) base = base.where('campaign_device.state', '=', filter.state);
    if (filter.sn) {
      base = base.where(sql<boolean>`campaign_device.sn like ${containing(filter.sn)} escape '\\'`);
    }
    const where = dataRuleWhere(rules, DEVICE_RULE_COLUMNS);
    if (where) base = base.where(where);
    const [records, total] = await Promise.all([
      base
        .selectAll('campaign_device')
        .select('device.name')
        .orderBy('campaign_device.wave', page.order)
        .orderBy('campaign_device.sn', page.order)
        .limit(page.pageSize)
        .offset((page.pageNo - 1) * page.pageSize)
        .execute(),
      base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { records, total: Number(total?.n ?? 0) };
  }

  /**
   * Queued devices of the waves from `fromWave` to `uptoWave` whose device is offline → failed
   * with `error`; returns how many moved.
   */
  async failOffline(
    campaignId: string,
    fromWave: number,
    uptoWave: number,
    error: string,
    now: number,
  ): Promise<number> {
    const result = await this.db
      .updateTable('campaign_device')
      .set({ state: 'failed', error, deadline: null, update_time: now })
      .where('campaign_id', '=', campaignId)
      .where('state', '=', 'queued')
      .where('wave', '>=', fromWave)
      .where('wave', '<=', uptoWave)
      .where('device_id', 'in', (eb) =>
        eb.selectFrom('device').select('device.id').where('device.status', '<>', 'online'),
      )
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Devices whose current step passed its deadline. */
  expired(campaignId: string, now: number) {
    return this.db
      .selectFrom('campaign_device')
      .select(['device_id', 'state', 'job_id', 'log_id'])
      .where('campaign_id', '=', campaignId)
      .where('state', 'in', ACTIVE)
      .where('deadline', '<', now)
      .execute();
  }

  /**
   * Moves one device from one of the states `from` (and, when given, the job it is on), so that
   * two nodes handling the same report or deadline cannot both move it. False when it had moved.
   */
  async move(
    campaignId: string,
    deviceId: string,
    from: string[],
    values: Partial<
      Pick<
        CampaignDeviceTable,
        'state' | 'progress' | 'error' | 'deadline' | 'update_time' | 'log_id' | 'not_before'
      >
    >,
    jobId?: string,
    progressBelow?: number,
  ): Promise<boolean> {
    let query = this.db
      .updateTable('campaign_device')
      .set(values)
      .where('campaign_id', '=', campaignId)
      .where('device_id', '=', deviceId)
      .where('state', 'in', from);
    if (jobId !== undefined) query = query.where('job_id', '=', jobId);
    if (progressBelow !== undefined) {
      query = query.where((eb) =>
        eb.or([eb('progress', 'is', null), eb('progress', '<', progressBelow)]),
      );
    }
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  /** The device's row of an upgrade job, with its campaign. */
  byJob(jobId: string) {
    return this.db
      .selectFrom('campaign_device')
      .innerJoin('campaign', 'campaign.id', 'campaign_device.campaign_id')
      .select([...JOB_COLUMNS, 'campaign.firmware_id'])
      .where('campaign_device.job_id', '=', jobId)
      .executeTakeFirst();
  }

  /**
   * The rows of these devices still in progress, in campaigns still running or paused: one
   * statement for the devices of a batch that came online together.
   */
  openRowsOfDevices(deviceIds: string[]) {
    return this.db
      .selectFrom('campaign_device')
      .innerJoin('campaign', 'campaign.id', 'campaign_device.campaign_id')
      .select([
        ...JOB_COLUMNS,
        'campaign.kind',
        'campaign.state as campaign_state',
        'campaign.firmware_id',
      ])
      .where(inIds(this.db, 'campaign_device.device_id', deviceIds))
      .where('campaign_device.state', 'in', OPEN_STATES)
      .where('campaign.state', 'in', ['running', 'paused'])
      .execute();
  }

  /**
   * In one transaction that holds the campaign's row (PostgreSQL: `for update`, so that two nodes
   * filling the same campaign take turns; SQLite has one writer), runs `work` with the campaign as
   * it is now and the number of its active devices.
   */
  withCampaignLocked<T>(
    id: string,
    work: (trx: Transaction<Database>, campaign: CampaignTable, active: number) => Promise<T>,
  ): Promise<T | undefined> {
    return this.db.transaction().execute(async (trx) => {
      let query = trx.selectFrom('campaign').selectAll().where('id', '=', id);
      if (this.dialect === 'postgres') query = query.forUpdate();
      const campaign = await query.executeTakeFirst();
      if (!campaign) return undefined;
      const active = await trx
        .selectFrom('campaign_device')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('campaign_id', '=', id)
        .where('state', 'in', ACTIVE)
        .executeTakeFirst();
      return work(trx, campaign, Number(active?.n ?? 0));
    });
  }

  /**
   * Queued devices of the waves begun that may start now (past their jitter), in wave and SN
   * order: those online on node `reach.node` or on no node (an external broker's), or the one
   * device `reach.deviceId` that has just come online here (whose presence may not be written
   * yet, so its status is not tested). A device shown online on another node is that node's to
   * start: if the node died, its devices look online until another node finds it silent, and
   * work sent to them meanwhile would go nowhere.
   */
  candidates(
    trx: Tx,
    campaignId: string,
    uptoWave: number,
    now: number,
    limit: number,
    reach: { node: string } | { deviceId: string },
  ) {
    let query = trx
      .selectFrom('campaign_device')
      .innerJoin('device', 'device.id', 'campaign_device.device_id')
      .select(['campaign_device.device_id', 'campaign_device.not_before'])
      .where('campaign_device.campaign_id', '=', campaignId)
      .where('campaign_device.state', '=', 'queued')
      .where('campaign_device.wave', '<=', uptoWave)
      .where((eb) =>
        eb.or([
          eb('campaign_device.not_before', 'is', null),
          eb('campaign_device.not_before', '<=', now),
        ]),
      );
    query =
      'deviceId' in reach
        ? query.where('campaign_device.device_id', '=', reach.deviceId)
        : query
            .where('device.status', '=', 'online')
            .where((eb) =>
              eb.or([eb('device.node_id', 'is', null), eb('device.node_id', '=', reach.node)]),
            );
    return query
      .orderBy('campaign_device.wave')
      .orderBy('campaign_device.sn')
      .limit(limit)
      .execute();
  }

  /** Gives queued devices their random start delay (jitter). */
  async delay(trx: Tx, campaignId: string, delays: { deviceId: string; notBefore: number }[]) {
    for (let i = 0; i < delays.length; i += BATCH) {
      const batch = delays.slice(i, i + BATCH);
      await trx
        .updateTable('campaign_device')
        .set({
          not_before: byDevice(batch.map((d) => [d.deviceId, sql`cast(${d.notBefore} as bigint)`])),
        })
        .where('campaign_id', '=', campaignId)
        .where(
          'device_id',
          'in',
          batch.map((d) => d.deviceId),
        )
        .where('state', '=', 'queued')
        .execute();
    }
  }

  /**
   * Queued → notified; returns the devices this call moved (one statement per batch, so a batch
   * of hundreds is one round trip, and a device another node moved first is not among them).
   */
  async claim(
    trx: Tx,
    campaignId: string,
    deviceIds: string[],
    now: number,
    deadline: number,
  ): Promise<ClaimedDevice[]> {
    const claimed: ClaimedDevice[] = [];
    for (let i = 0; i < deviceIds.length; i += BATCH) {
      const moved = await trx
        .updateTable('campaign_device')
        .set({ state: 'notified', deadline, update_time: now, progress: null, error: null })
        .where('campaign_id', '=', campaignId)
        .where('device_id', 'in', deviceIds.slice(i, i + BATCH))
        .where('state', '=', 'queued')
        .returning('device_id')
        .execute();
      if (moved.length === 0) continue;
      const rows = await trx
        .selectFrom('campaign_device')
        .innerJoin('device', 'device.id', 'campaign_device.device_id')
        .innerJoin('device_token', 'device_token.id', 'device.token_id')
        .leftJoin('sys_user', 'sys_user.id', 'device.owner_id')
        .select([
          'campaign_device.device_id',
          'campaign_device.sn',
          'device_token.code as token_code',
          'device.series',
          'campaign_device.job_id',
          'sys_user.username as owner_name',
        ])
        .where('campaign_device.campaign_id', '=', campaignId)
        .where(
          'campaign_device.device_id',
          'in',
          moved.map((m) => m.device_id),
        )
        .execute();
      for (const r of rows) claimed.push({ ...r, job_id: r.job_id ?? '' });
    }
    return claimed;
  }

  async setLogIds(campaignId: string, logs: { deviceId: string; logId: string }[]) {
    for (let i = 0; i < logs.length; i += BATCH) {
      const batch = logs.slice(i, i + BATCH);
      await this.db
        .updateTable('campaign_device')
        .set({ log_id: byDevice(batch.map((l) => [l.deviceId, sql`${l.logId}`])) })
        .where('campaign_id', '=', campaignId)
        .where(
          'device_id',
          'in',
          batch.map((l) => l.deviceId),
        )
        .execute();
    }
  }

  /** Every device not finished yet → canceled. */
  async cancelDevices(companyId: string, campaignId: string, now: number): Promise<void> {
    await scoped(this.db, companyId)
      .updateTable('campaign_device')
      .set({ state: 'canceled', deadline: null, update_time: now })
      .where('campaign_id', '=', campaignId)
      .where('state', 'in', OPEN_STATES)
      .execute();
  }

  /** Failed devices → queued again, each with a new job id; returns how many. */
  async requeueFailed(
    companyId: string,
    campaignId: string,
    now: number,
    newJobId: () => string,
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      const company = scoped(trx, companyId);
      const failed = await company
        .selectFrom('campaign_device')
        .select('device_id')
        .where('campaign_id', '=', campaignId)
        .where('state', '=', 'failed')
        .execute();
      let count = 0;
      for (let i = 0; i < failed.length; i += BATCH) {
        const batch = failed.slice(i, i + BATCH).map((f) => f.device_id);
        const result = await company
          .updateTable('campaign_device')
          .set((eb) => ({
            state: 'queued',
            job_id: byDevice(batch.map((id) => [id, sql`${newJobId()}`])),
            attempts: eb('attempts', '+', 1),
            error: null,
            progress: null,
            not_before: null,
            deadline: null,
            log_id: null,
            update_time: now,
          }))
          .where('campaign_id', '=', campaignId)
          .where('device_id', 'in', batch)
          .where('state', '=', 'failed')
          .executeTakeFirst();
        count += Number(result.numUpdatedRows);
      }
      return count;
    });
  }
}

/** A value per device in one UPDATE: `case device_id when … then … end`. */
function byDevice<T>(values: [deviceId: string, value: RawBuilder<unknown>][]): RawBuilder<T> {
  return sql<T>`case ${sql.ref('device_id')} ${sql.join(
    values.map(([id, value]) => sql`when ${id} then ${value}`),
    sql` `,
  )} end`;
}
