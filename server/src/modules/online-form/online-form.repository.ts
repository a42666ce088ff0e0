import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../platform/db/database.js';
import { containing } from '../../platform/db/like.js';
import { scoped } from '../../platform/db/scoped.js';
import type {
  OnlineFormHistoryTable,
  OnlineFormRecordTable,
  OnlineFormTable,
  SysPermissionTable,
} from '../../platform/db/schema.js';
import type { Filter, IndexValue } from './online-form.rules.js';

export type FormRow = OnlineFormTable;
export type RecordRow = Omit<OnlineFormRecordTable, 'company_id' | 'form_id'>;
export type NewRecord = Omit<OnlineFormRecordTable, 'company_id'>;
export type HistoryRow = OnlineFormHistoryTable;
export type MenuRow = Omit<SysPermissionTable, 'company_id'>;

/** How the list is ordered: a column of the record, or a field's indexed value. */
export type Sort =
  | { by: 'create_time' | 'update_time'; order: 'asc' | 'desc' }
  | { by: 'field'; key: string; column: 'value_text' | 'value_num'; order: 'asc' | 'desc' };

/**
 * A filtered list with at most this many matches is read from the filter's index and sorted;
 * with more, the sort's index is walked and the filters checked per row (they match often, so
 * a page is found after a few rows).
 */
const SORT_MATCHES_MAX = 5000;

const RECORD_COLUMNS = sql.raw(
  'r.id, r.data, r.create_by, r.create_time, r.update_by, r.update_time',
);

/** The condition of a filter on the value row `alias` (a key, then its value). */
function condition(alias: string, f: Filter): RawBuilder<SqlBool> {
  const a = sql.raw(alias);
  const key = sql`${a}.field_key = ${f.key}`;
  switch (f.kind) {
    case 'prefix':
      // A range of the index: the values that start with the text (as written, case included).
      return sql<SqlBool>`${key} and ${a}.value_text >= ${f.text} and ${a}.value_text < ${`${f.text}\u{10ffff}`}`;
    case 'text':
      return sql<SqlBool>`${key} and ${a}.value_text = ${f.text}`;
    case 'num':
      return sql<SqlBool>`${key} and ${a}.value_num = ${f.num}`;
    case 'numRange':
      return sql<SqlBool>`${key} and ${a}.value_num is not null${
        f.from === null ? sql`` : sql` and ${a}.value_num >= ${f.from}`
      }${f.to === null ? sql`` : sql` and ${a}.value_num <= ${f.to}`}`;
    case 'textRange':
      return sql<SqlBool>`${key} and ${a}.value_text is not null${
        f.from === null ? sql`` : sql` and ${a}.value_text >= ${f.from}`
      }${f.to === null ? sql`` : sql` and ${a}.value_text <= ${f.to}`}`;
  }
}

/** `and exists (...)` for each filter, on the record id `recordId`. */
function existsAll(formId: string, recordId: string, filters: readonly Filter[]) {
  const parts = filters.map(
    (f, i) =>
      sql`and exists (select 1 from online_form_value ${sql.raw(`x${i}`)} where ${sql.raw(`x${i}`)}.record_id = ${sql.raw(recordId)} and ${sql.raw(`x${i}`)}.form_id = ${formId} and ${condition(`x${i}`, f)})`,
  );
  return sql.join(parts, sql` `);
}

export class OnlineFormRepository {
  constructor(private readonly db: Db) {}

  /* Definitions ------------------------------------------------------------------------------ */

  find(companyId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('online_form')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findByCode(companyId: string, code: string) {
    return scoped(this.db, companyId)
      .selectFrom('online_form')
      .selectAll()
      .where('code', '=', code)
      .executeTakeFirst();
  }

  async count(companyId: string): Promise<number> {
    const row = await scoped(this.db, companyId)
      .selectFrom('online_form')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  async page(
    companyId: string,
    query: {
      name?: string;
      status?: string;
      column: 'createTime' | 'code' | 'name';
      order: 'asc' | 'desc';
      pageNo: number;
      pageSize: number;
    },
  ) {
    let q = scoped(this.db, companyId).selectFrom('online_form');
    if (query.name) {
      const like = containing(query.name);
      q = q.where((eb) =>
        eb.or([
          eb(sql`lower(name)`, 'like', sql`lower(${like}) escape '\\'`),
          eb(sql`lower(name_en)`, 'like', sql`lower(${like}) escape '\\'`),
          eb(sql`lower(code)`, 'like', sql`lower(${like}) escape '\\'`),
        ]),
      );
    }
    if (query.status) q = q.where('status', '=', query.status);
    const column = { createTime: 'create_time', code: 'code', name: 'name' } as const;
    const [rows, total] = await Promise.all([
      q
        .selectAll()
        .orderBy(column[query.column], query.order)
        .orderBy('id', query.order)
        .limit(query.pageSize)
        .offset((query.pageNo - 1) * query.pageSize)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(total?.n ?? 0) };
  }

  async insert(companyId: string, row: Omit<FormRow, 'company_id'>): Promise<void> {
    await scoped(this.db, companyId).insertInto('online_form', row).execute();
  }

  /**
   * Saves a definition; when the indexed fields changed, rebuilds the form's value rows from the
   * records (`reindex` gives each record's rows), in the same transaction.
   */
  async update(
    companyId: string,
    id: string,
    set: Partial<Omit<FormRow, 'id' | 'company_id'>>,
    reindex?: (data: string) => IndexValue[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await scoped(trx, companyId)
        .updateTable('online_form')
        .set(set)
        .where('id', '=', id)
        .execute();
      if (!reindex) return;
      await trx.deleteFrom('online_form_value').where('form_id', '=', id).execute();
      let after = '';
      for (;;) {
        const batch = await scoped(trx, companyId)
          .selectFrom('online_form_record')
          .select(['id', 'data'])
          .where('form_id', '=', id)
          .where('id', '>', after)
          .orderBy('id')
          .limit(1000)
          .execute();
        if (batch.length === 0) break;
        await this.insertValues(
          trx,
          id,
          batch.flatMap((r) => reindex(r.data).map((v) => ({ ...v, record_id: r.id }))),
        );
        after = batch[batch.length - 1]!.id;
      }
    });
  }

  /** Deletes a form without records, with its history. */
  async delete(companyId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const form = await scoped(trx, companyId)
        .selectFrom('online_form')
        .select('record_count')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!form || form.record_count > 0) return false;
      await trx.deleteFrom('online_form_history').where('form_id', '=', id).execute();
      await scoped(trx, companyId).deleteFrom('online_form').where('id', '=', id).execute();
      return true;
    });
  }

  /* Menu rows ------------------------------------------------------------------------------- */

  /**
   * Writes (or renames) the form's page and buttons as the company's own catalogue rows, and
   * grants the new ones to the company's `admin` role, with the form's status, in one transaction.
   * Existing rows keep their ids, so roles that were granted them keep them.
   */
  async publish(
    companyId: string,
    formId: string,
    rows: MenuRow[],
    form: Partial<FormRow>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const company = scoped(trx, companyId);
      const existing = new Set(
        (
          await company
            .selectFrom('sys_permission')
            .select('id')
            .where(
              'id',
              'in',
              rows.map((r) => r.id),
            )
            .execute()
        ).map((r) => r.id),
      );
      for (const row of rows) {
        if (existing.has(row.id)) {
          await company
            .updateTable('sys_permission')
            .set({
              name: row.name,
              name_en: row.name_en,
              url: row.url,
              perms: row.perms,
              del_flag: 0,
            })
            .where('id', '=', row.id)
            .execute();
        } else {
          await company.insertInto('sys_permission', row).execute();
        }
      }
      const added = rows.filter((r) => !existing.has(r.id)).map((r) => r.id);
      const admin = await company
        .selectFrom('sys_role')
        .select('id')
        .where('role_code', '=', 'admin')
        .executeTakeFirst();
      if (admin && added.length > 0) {
        await trx
          .insertInto('sys_role_permission')
          .values(
            added.map((id) => ({ role_id: admin.id, permission_id: id, data_rule_ids: null })),
          )
          .execute();
      }
      if (Object.keys(form).length > 0) {
        await company.updateTable('online_form').set(form).where('id', '=', formId).execute();
      }
    });
  }

  /** Removes the form's catalogue rows and every grant of them; the records stay. */
  async unpublish(
    companyId: string,
    formId: string,
    ids: string[],
    form: Partial<FormRow>,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('sys_role_permission').where('permission_id', 'in', ids).execute();
      await trx
        .deleteFrom('sys_depart_role_permission')
        .where('permission_id', 'in', ids)
        .execute();
      await trx.deleteFrom('sys_depart_permission').where('permission_id', 'in', ids).execute();
      await trx.deleteFrom('sys_permission_data_rule').where('permission_id', 'in', ids).execute();
      await scoped(trx, companyId).deleteFrom('sys_permission').where('id', 'in', ids).execute();
      await scoped(trx, companyId)
        .updateTable('online_form')
        .set(form)
        .where('id', '=', formId)
        .execute();
    });
  }

  /* Records --------------------------------------------------------------------------------- */

  findRecord(companyId: string, formId: string, id: string) {
    return scoped(this.db, companyId)
      .selectFrom('online_form_record')
      .select(['id', 'data', 'create_by', 'create_time', 'update_by', 'update_time'])
      .where('form_id', '=', formId)
      .where('id', '=', id)
      .executeTakeFirst();
  }

  findRecords(companyId: string, formId: string, ids: string[]) {
    if (ids.length === 0) return Promise.resolve([]);
    return scoped(this.db, companyId)
      .selectFrom('online_form_record')
      .select(['id', 'data', 'create_by', 'create_time', 'update_by', 'update_time'])
      .where('form_id', '=', formId)
      .where('id', 'in', ids)
      .execute();
  }

  /** Record ids of the form (other than `exceptId`) holding one of these unique keys. */
  async uniqueHolders(
    formId: string,
    keys: { field_key: string; unique_key: string }[],
    exceptId: string | null,
  ): Promise<{ field_key: string; unique_key: string | null }[]> {
    if (keys.length === 0) return [];
    let q = this.db
      .selectFrom('online_form_value')
      .select(['field_key', 'unique_key'])
      .where('form_id', '=', formId)
      .where((eb) =>
        eb.or(
          keys.map((k) =>
            eb.and([eb('field_key', '=', k.field_key), eb('unique_key', '=', k.unique_key)]),
          ),
        ),
      );
    if (exceptId) q = q.where('record_id', '!=', exceptId);
    return q.execute();
  }

  /** Inserts records with their value rows and history, and counts them on the form. */
  async insertRecords(
    companyId: string,
    formId: string,
    records: { row: NewRecord; values: IndexValue[]; history: HistoryRow }[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (let i = 0; i < records.length; i += 500) {
        const batch = records.slice(i, i + 500);
        await scoped(trx, companyId)
          .insertInto(
            'online_form_record',
            batch.map((r) => r.row),
          )
          .execute();
        await this.insertValues(
          trx,
          formId,
          batch.flatMap((r) => r.values.map((v) => ({ ...v, record_id: r.row.id }))),
        );
        await trx
          .insertInto('online_form_history')
          .values(batch.map((r) => r.history))
          .execute();
      }
      await scoped(trx, companyId)
        .updateTable('online_form')
        .set((eb) => ({ record_count: eb('record_count', '+', records.length) }))
        .where('id', '=', formId)
        .execute();
    });
  }

  async updateRecord(
    companyId: string,
    formId: string,
    id: string,
    set: { data: string; update_by: string; update_time: number },
    values: IndexValue[],
    history: HistoryRow,
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await scoped(trx, companyId)
        .updateTable('online_form_record')
        .set(set)
        .where('form_id', '=', formId)
        .where('id', '=', id)
        .execute();
      await trx.deleteFrom('online_form_value').where('record_id', '=', id).execute();
      await this.insertValues(
        trx,
        formId,
        values.map((v) => ({ ...v, record_id: id })),
      );
      await trx.insertInto('online_form_history').values(history).execute();
    });
  }

  async deleteRecords(
    companyId: string,
    formId: string,
    ids: string[],
    history: HistoryRow[],
  ): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('online_form_value').where('record_id', 'in', ids).execute();
      const result = await scoped(trx, companyId)
        .deleteFrom('online_form_record')
        .where('form_id', '=', formId)
        .where('id', 'in', ids)
        .executeTakeFirst();
      const n = Number(result.numDeletedRows);
      if (history.length > 0) await trx.insertInto('online_form_history').values(history).execute();
      await scoped(trx, companyId)
        .updateTable('online_form')
        .set((eb) => ({ record_count: eb('record_count', '-', n) }))
        .where('id', '=', formId)
        .execute();
      return n;
    });
  }

  private async insertValues(
    trx: Db,
    formId: string,
    values: (IndexValue & { record_id: string })[],
  ): Promise<void> {
    for (let i = 0; i < values.length; i += 500) {
      const batch = values.slice(i, i + 500).map((v) => ({ ...v, form_id: formId }));
      if (batch.length > 0) await trx.insertInto('online_form_value').values(batch).execute();
    }
  }

  /**
   * A page of records. Unfiltered, the total is the form's count and the page walks the sort's
   * index. Filtered, the first filter's index counts the matches; few matches are read from it
   * and sorted, many by walking the sort's index (see SORT_MATCHES_MAX).
   */
  async recordPage(
    companyId: string,
    form: { id: string; record_count: number },
    filters: readonly Filter[],
    sort: Sort,
    limit: number,
    offset: number,
  ): Promise<{ rows: RecordRow[]; total: number }> {
    const formId = form.id;
    const dir = sql.raw(sort.order === 'asc' ? 'asc' : 'desc');
    let total = form.record_count;
    const [first, ...rest] = filters;
    if (first) {
      const counted = await sql<{ n: number }>`
        select count(*) as n from online_form_value v0
        where v0.form_id = ${formId} and ${condition('v0', first)}
        ${existsAll(formId, 'v0.record_id', rest)}`.execute(this.db);
      total = Number(counted.rows[0]?.n ?? 0);
      if (total === 0) return { rows: [], total };
    }
    if (offset >= total) return { rows: [], total };

    // The page's ids and sort keys first (index entries only where the index covers them), then
    // the 20 rows: the sorter and the offset never carry the records' JSON.
    let ids: RawBuilder<unknown>;
    if (first && total <= SORT_MATCHES_MAX) {
      // `cross join` keeps SQLite's join order: the filter's index first, then the records.
      ids =
        sort.by === 'field'
          ? sql`select r.id as id, s.${sql.raw(sort.column)} as k
              from online_form_value v0 cross join online_form_record r cross join online_form_value s
              where v0.form_id = ${formId} and ${condition('v0', first)}
                and r.id = v0.record_id and r.company_id = ${companyId}
                and s.record_id = r.id and s.field_key = ${sort.key}
                ${existsAll(formId, 'r.id', rest)}
              order by k ${dir}, r.id ${dir} limit ${limit} offset ${offset}`
          : sql`select r.id as id, r.${sql.raw(sort.by)} as k
              from online_form_value v0 cross join online_form_record r
              where v0.form_id = ${formId} and ${condition('v0', first)}
                and r.id = v0.record_id and r.company_id = ${companyId}
                ${existsAll(formId, 'r.id', rest)}
              order by k ${dir}, r.id ${dir} limit ${limit} offset ${offset}`;
    } else if (sort.by === 'field') {
      ids = sql`select s.record_id as id, s.${sql.raw(sort.column)} as k
        from online_form_value s
        where s.form_id = ${formId} and s.field_key = ${sort.key}
          ${existsAll(formId, 's.record_id', filters)}
        order by s.${sql.raw(sort.column)} ${dir}, s.record_id ${dir}
        limit ${limit} offset ${offset}`;
    } else {
      ids = sql`select r.id as id, r.${sql.raw(sort.by)} as k from online_form_record r
        where r.company_id = ${companyId} and r.form_id = ${formId}
          ${existsAll(formId, 'r.id', filters)}
        order by r.${sql.raw(sort.by)} ${dir}, r.id ${dir}
        limit ${limit} offset ${offset}`;
    }
    const query = sql<RecordRow>`
      select ${RECORD_COLUMNS} from (${ids}) p cross join online_form_record r
      where r.id = p.id and r.company_id = ${companyId}
      order by p.k ${dir}, p.id ${dir}`;
    const result = await query.execute(this.db);
    return {
      rows: result.rows.map((r) => ({
        ...r,
        create_time: Number(r.create_time),
        update_time: r.update_time === null ? null : Number(r.update_time),
      })),
      total,
    };
  }

  /** Every record of the form in the list's order, a batch at a time (exports). */
  async *allRecords(
    companyId: string,
    form: { id: string; record_count: number },
    filters: readonly Filter[],
    sort: Sort,
    max: number,
  ): AsyncGenerator<RecordRow[]> {
    for (let offset = 0; offset < max; offset += 1000) {
      const { rows } = await this.recordPage(
        companyId,
        form,
        filters,
        sort,
        Math.min(1000, max - offset),
        offset,
      );
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < 1000) return;
    }
  }

  /* History --------------------------------------------------------------------------------- */

  async historyPage(formId: string, recordId: string | undefined, limit: number, offset: number) {
    let q = this.db.selectFrom('online_form_history').where('form_id', '=', formId);
    if (recordId) q = q.where('record_id', '=', recordId);
    const [rows, total] = await Promise.all([
      q
        .selectAll()
        .orderBy('create_time', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst(),
    ]);
    return { rows, total: Number(total?.n ?? 0) };
  }

  /* References (read only: names to show, ids to check) ------------------------------------- */

  async devices(companyId: string, ids: string[]) {
    if (ids.length === 0) return [];
    return scoped(this.db, companyId)
      .selectFrom('device')
      .select(['id', 'sn', 'name'])
      .where('id', 'in', ids)
      .execute();
  }

  async devicesBySn(companyId: string, sns: string[]) {
    if (sns.length === 0) return [];
    return scoped(this.db, companyId)
      .selectFrom('device')
      .select(['id', 'sn', 'name'])
      .where('sn', 'in', sns)
      .execute();
  }

  async locations(companyId: string, ids: string[]) {
    if (ids.length === 0) return [];
    return scoped(this.db, companyId)
      .selectFrom('base_location')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .execute();
  }

  async locationsByName(companyId: string, names: string[]) {
    if (names.length === 0) return [];
    return scoped(this.db, companyId)
      .selectFrom('base_location')
      .select(['id', 'name'])
      .where('name', 'in', names)
      .execute();
  }

  async files(companyId: string, ids: string[]) {
    if (ids.length === 0) return [];
    return scoped(this.db, companyId)
      .selectFrom('sys_oss_file')
      .select(['id', 'name', 'size'])
      .where('id', 'in', ids)
      .execute();
  }
}
