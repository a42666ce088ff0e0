import {
  ONLINE_FORMS_MAX,
  ONLINE_FORM_ACTIONS,
  ONLINE_FORM_IMPORT_ROWS_MAX,
  ONLINE_FORM_RECORD_MAX_BYTES,
  ONLINE_RECORD_FIXED_SORTS,
  onlineFormPageUrl,
  onlineFormPermission,
  recordSchema,
  type TOnlineField,
  type TOnlineForm,
  type TOnlineFormAction,
  type TOnlineFormEdit,
  type TOnlineFormInput,
  type TOnlineFormListQuery,
  type TOnlineFormMeta,
  type TOnlineHistoryEntry,
  type TOnlineHistoryQuery,
  type TOnlineImportRowError,
  type TOnlineRecord,
  type TOnlineRecordData,
  type TOnlineRecordExportQuery,
  type TOnlineRecordImportResult,
  type TOnlineRecordListQuery,
  type TOnlineValue,
  ZOnlineFormEdit,
  ZOnlineFormInput,
} from '@blrms/contracts';
import type { Readable } from 'node:stream';
import { RE2JS } from 're2js';
import type { z } from 'zod';
import { permissionId } from '../../db/seed/seed.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId, stableId } from '../../platform/db/ids.js';
import { isUniqueViolation } from '../../platform/db/unique-violation.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
import type { FieldProblem } from '../../platform/http/field-problems.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message } from '../../platform/http/messages.js';
import { iso, isoOrNull, pageResult, type Page } from '../../platform/http/paging.js';
import { localDateTime } from '../../platform/sheet/sheet-cells.js';
import { readSheet, sheetKind, type SheetUpload } from '../../platform/sheet/sheet-reader.js';
import { sheetStream, type SheetFormat } from '../../platform/sheet/sheet-writer.js';
import type { DictService } from '../dict/dict.service.js';
import {
  type MenuRow,
  type OnlineFormRepository,
  type FormRow,
  type HistoryRow,
  type RecordRow,
  type Sort,
} from './online-form.repository.js';
import {
  RESERVED_FORM_CODES,
  SearchProblem,
  cellValue,
  changesBetween,
  fits,
  indexSignature,
  indexValues,
  labelOf,
  normalise,
  parseData,
  parseFields,
  parseSearch,
  problemsText,
  recordProblems,
  withLabel,
  type Filter,
} from './online-form.rules.js';

/** Compiled patterns by source: a pattern is compiled once, not per value. */
const PATTERNS_MAX = 500;
const patterns = new Map<string, RE2JS>();
function compiled(pattern: string): RE2JS {
  let re = patterns.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    if (patterns.size >= PATTERNS_MAX) patterns.clear();
    patterns.set(pattern, re);
  }
  return re;
}
/** RE2 matches in linear time: a saved pattern cannot hang the server (no ReDoS). */
const matchPattern = (pattern: string, value: string) => compiled(pattern).matches(value);

const BUTTON_NAMES: Record<Exclude<TOnlineFormAction, 'list'>, [string, string]> = {
  add: ['添加', 'Add'],
  edit: ['编辑', 'Edit'],
  delete: ['删除', 'Delete'],
  export: ['导入导出', 'Import and export'],
};

const pageRowId = (formId: string) => stableId('online-form', `${formId}:page`);
const buttonRowId = (formId: string, action: string) =>
  stableId('online-form', `${formId}:${action}`);
/** Every catalogue row a published form owns. */
const menuRowIds = (formId: string) => [
  pageRowId(formId),
  ...ONLINE_FORM_ACTIONS.filter((a) => a !== 'list').map((a) => buttonRowId(formId, a)),
];

const EXPORT_ROWS_MAX = 100_000;
const IMPORT_ERRORS_MAX = 1000;

function toForm(row: FormRow): TOnlineForm {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    nameEn: row.name_en,
    description: row.description,
    fields: parseFields(row.fields),
    status: row.status === 'published' ? 'published' : 'draft',
    version: row.version,
    records: row.record_count,
    createBy: row.create_by,
    createTime: iso(Number(row.create_time)),
    updateTime: isoOrNull(row.update_time === null ? null : Number(row.update_time)),
    publishTime: isoOrNull(row.publish_time === null ? null : Number(row.publish_time)),
  };
}

/** `YYYY-MM-DD HH:mm[:ss]` read on the clocks of `timeZone`, as an ISO instant. */
function fromLocal(text: string, timeZone: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (!m) return null;
  const wall = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0));
  // The zone's offset at that instant, found by reading the guess on its clocks (twice for DST).
  let at = wall;
  for (let i = 0; i < 2; i++) {
    const shown = Date.parse(`${localDateTime(new Date(at), timeZone).replace(' ', 'T')}Z`);
    at += wall - shown;
  }
  return new Date(at).toISOString();
}

/** Services other modules lend: dictionaries for select options. */
export interface OnlineFormDeps {
  dicts: DictService;
}

/**
 * Form definitions (`/online/form/*`) and, through `open`, the records of a published form
 * (`/online/data/{code}/*`).
 */
export class OnlineFormService {
  constructor(
    private readonly repository: OnlineFormRepository,
    private readonly permissions: PermissionService,
    private readonly deps: OnlineFormDeps,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {}

  /* Definitions ------------------------------------------------------------------------------ */

  async list(scope: Scope, query: TOnlineFormListQuery): Promise<Page<TOnlineForm>> {
    const { rows, total } = await this.repository.page(scope.companyId, query);
    return pageResult(rows.map(toForm), total, query);
  }

  async get(scope: Scope, id: string): Promise<TOnlineForm> {
    return toForm(await this.requireForm(scope, id));
  }

  async add(scope: Scope, input: TOnlineFormInput, lang: Lang): Promise<TOnlineForm> {
    const form = ZOnlineFormInput.parse(input);
    if (RESERVED_FORM_CODES.has(form.code)) throw new AppError('onlineFormCodeReserved', 400);
    if ((await this.repository.count(scope.companyId)) >= ONLINE_FORMS_MAX) {
      throw new AppError('onlineFormTooMany', 400, { max: ONLINE_FORMS_MAX });
    }
    if (await this.repository.findByCode(scope.companyId, form.code)) {
      throw new AppError('onlineFormCodeExists', 400);
    }
    await this.checkDefinition(scope, form.fields, lang);
    const id = newId();
    try {
      await this.repository.insert(scope.companyId, {
        id,
        code: form.code,
        name: form.name,
        name_en: form.nameEn || null,
        description: form.description || null,
        fields: JSON.stringify(form.fields),
        status: 'draft',
        version: 1,
        record_count: 0,
        create_by: scope.username,
        create_time: this.clock(),
        update_by: null,
        update_time: null,
        publish_time: null,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('onlineFormCodeExists', 400);
      throw error;
    }
    return this.get(scope, id);
  }

  /**
   * Saves a changed definition. Records keep what they hold: values of removed fields stay in
   * their JSON (hidden), values that no longer fit a field's type are shown as text. A published
   * form's menu rows follow its name.
   */
  async edit(scope: Scope, input: TOnlineFormEdit, lang: Lang): Promise<TOnlineForm> {
    const form = ZOnlineFormEdit.parse(input);
    const row = await this.requireForm(scope, form.id);
    if (form.code !== row.code) {
      if (row.status === 'published' || row.record_count > 0) {
        throw new AppError('onlineFormCodeFixed', 400);
      }
      if (RESERVED_FORM_CODES.has(form.code)) throw new AppError('onlineFormCodeReserved', 400);
      if (await this.repository.findByCode(scope.companyId, form.code)) {
        throw new AppError('onlineFormCodeExists', 400);
      }
    }
    await this.checkDefinition(scope, form.fields, lang);
    const before = parseFields(row.fields);
    const rebuild = indexSignature(before) !== indexSignature(form.fields);
    const fields = form.fields;
    const set = {
      code: form.code,
      name: form.name,
      name_en: form.nameEn || null,
      description: form.description || null,
      fields: JSON.stringify(fields),
      version: row.version + 1,
      update_by: scope.username,
      update_time: this.clock(),
    };
    try {
      await this.repository.update(
        scope.companyId,
        row.id,
        set,
        rebuild ? (data) => indexValues(fields, parseData(data)) : undefined,
      );
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const index = fields.findIndex(
        (f) => f.unique && !before.some((b) => b.key === f.key && b.unique && b.type === f.type),
      );
      const field = fields[Math.max(0, index)]!;
      throw new AppError('onlineFormUniqueConflict', 400, {
        index: Math.max(0, index),
        label: labelOf(field, lang),
      });
    }
    const saved = await this.requireForm(scope, row.id);
    if (saved.status === 'published') await this.writeMenu(scope, saved, {});
    return toForm(saved);
  }

  async delete(scope: Scope, id: string): Promise<void> {
    const row = await this.requireForm(scope, id);
    if (row.record_count > 0) {
      throw new AppError('onlineFormHasRecords', 400, { count: row.record_count });
    }
    if (row.status === 'published') await this.unpublish(scope, id);
    if (!(await this.repository.delete(scope.companyId, id))) {
      throw new AppError('onlineFormHasRecords', 400, { count: 1 });
    }
  }

  /** Adds the form's page and buttons to the company's menu; its `admin` role gets them. */
  async publish(scope: Scope, id: string): Promise<TOnlineForm> {
    const row = await this.requireForm(scope, id);
    const now = this.clock();
    await this.writeMenu(scope, row, { status: 'published', publish_time: now });
    return this.get(scope, id);
  }

  /** Takes the form's rows (and every grant of them) out of the menu; records stay. */
  async unpublish(scope: Scope, id: string): Promise<TOnlineForm> {
    const row = await this.requireForm(scope, id);
    await this.repository.unpublish(scope.companyId, row.id, menuRowIds(row.id), {
      status: 'draft',
      publish_time: null,
    });
    await this.catalogueChanged();
    return this.get(scope, id);
  }

  private async writeMenu(scope: Scope, row: FormRow, form: Partial<FormRow>): Promise<void> {
    const now = this.clock();
    const base = {
      perms_type: '1',
      status: '1',
      icon: null,
      hidden: 0,
      keep_alive: 0,
      always_show: 0,
      route: 1,
      internal_or_external: 0,
      del_flag: 0,
      redirect: null,
      create_time: now,
    };
    const page: MenuRow = {
      ...base,
      id: pageRowId(row.id),
      parent_id: permissionId('online'),
      name: row.name,
      name_en: row.name_en,
      url: onlineFormPageUrl(row.code),
      component: 'online/FormRecords',
      component_name: `online-data-${row.code}`,
      menu_type: 1,
      perms: onlineFormPermission(row.code, 'list'),
      sort_no: 10,
      icon: 'table',
      is_leaf: 0,
    };
    const buttons = (Object.keys(BUTTON_NAMES) as (keyof typeof BUTTON_NAMES)[]).map(
      (action, index): MenuRow => ({
        ...base,
        id: buttonRowId(row.id, action),
        parent_id: page.id,
        name: `${BUTTON_NAMES[action][0]}${row.name}`,
        name_en: `${BUTTON_NAMES[action][1]} ${row.name_en || row.name}`,
        url: null,
        component: null,
        component_name: null,
        menu_type: 2,
        perms: onlineFormPermission(row.code, action),
        sort_no: index,
        is_leaf: 1,
      }),
    );
    await this.repository.publish(scope.companyId, row.id, [page, ...buttons], form);
    await this.catalogueChanged();
  }

  /** Catalogue rows and grants are cached on every node: all resolve them again. */
  private async catalogueChanged(): Promise<void> {
    await this.bus.publish('auth.permissions-changed', {});
  }

  /**
   * What the contracts cannot check: patterns compile as RE2 (and defaults match them), select
   * fields name a dictionary the company can read.
   */
  private async checkDefinition(scope: Scope, fields: TOnlineField[], lang: Lang) {
    for (const [index, field] of fields.entries()) {
      if (field.type === 'text' && field.pattern) {
        try {
          compiled(field.pattern);
        } catch (error) {
          const detail =
            error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : '';
          throw new AppError('onlineFormPatternInvalid', 400, {
            index,
            detail: detail.slice(0, 120),
          });
        }
        if (field.defaultValue && !matchPattern(field.pattern, field.defaultValue)) {
          throw new AppError('onlineFormDefaultInvalid', 400, {
            index,
            rule: message(lang, 'onlineRulePattern', { hint: field.patternHint ?? '' }),
          });
        }
      }
      if (field.type === 'select') {
        const items = await this.dictItems(field.dictCode, lang, scope.companyId);
        if (items.length === 0) {
          throw new AppError('onlineFormDictMissing', 400, { index, code: field.dictCode });
        }
        if (field.defaultValue && !items.some((i) => i.value === field.defaultValue)) {
          throw new AppError('onlineFormDefaultInvalid', 400, {
            index,
            rule: message(lang, 'onlineRuleDictItem'),
          });
        }
      }
    }
  }

  /** A dictionary's enabled items; none when the company cannot read a dictionary of the code. */
  private async dictItems(code: string, lang: Lang, companyId: string) {
    try {
      return await this.deps.dicts.items(code, lang, companyId);
    } catch (error) {
      if (error instanceof AppError && error.httpStatus === 404) return [];
      throw error;
    }
  }

  private async requireForm(scope: Scope, id: string): Promise<FormRow> {
    const row = await this.repository.find(scope.companyId, id);
    if (!row) throw notFound('onlineFormNotFound');
    return row;
  }

  /* Records --------------------------------------------------------------------------------- */

  /**
   * The one way to a form's records: the published form of the caller's company with this code
   * (404 otherwise, another company's alike), and the caller holding `online:{code}:{action}`
   * (403). Every record operation is a method of what this returns, so none runs unchecked.
   */
  async open(scope: Scope, code: string, action: TOnlineFormAction): Promise<FormRecords> {
    const row = await this.repository.findByCode(scope.companyId, code);
    if (!row || row.status !== 'published') throw notFound('onlineFormNotFound');
    if (!(await this.permissions.hasIn(scope, onlineFormPermission(code, action)))) {
      throw forbidden();
    }
    return new FormRecords(this.repository, this.permissions, this.deps, this.clock, scope, row);
  }
}

type Checked = { data: TOnlineRecordData; problems: FieldProblem[] };

/** A published form's records, reached only through `OnlineFormService.open`. */
export class FormRecords {
  readonly fields: TOnlineField[];

  constructor(
    private readonly repository: OnlineFormRepository,
    private readonly permissions: PermissionService,
    private readonly deps: OnlineFormDeps,
    private readonly clock: Clock,
    private readonly scope: Scope,
    readonly form: FormRow,
  ) {
    this.fields = parseFields(form.fields);
  }

  async meta(): Promise<TOnlineFormMeta> {
    const grants = await this.permissions.grantsIn(this.scope);
    const can = (a: TOnlineFormAction) => grants.codes.has(onlineFormPermission(this.form.code, a));
    const f = toForm(this.form);
    return {
      id: f.id,
      code: f.code,
      name: f.name,
      nameEn: f.nameEn,
      description: f.description,
      fields: f.fields,
      version: f.version,
      access: { add: can('add'), edit: can('edit'), delete: can('delete'), export: can('export') },
    };
  }

  async list(query: TOnlineRecordListQuery, lang: Lang): Promise<Page<TOnlineRecord>> {
    const { filters, sort } = this.listing(query.search, query.column, query.order);
    const { rows, total } = await this.repository.recordPage(
      this.scope.companyId,
      this.form,
      filters,
      sort,
      query.pageSize,
      (query.pageNo - 1) * query.pageSize,
    );
    return pageResult(await this.present(rows, lang), total, query);
  }

  async get(id: string, lang: Lang): Promise<TOnlineRecord> {
    const [record] = await this.present([await this.requireRecord(id)], lang);
    return record!;
  }

  async add(data: TOnlineRecordData, lang: Lang): Promise<TOnlineRecord> {
    const [checked] = await this.check([{ data, id: null }], lang, true);
    this.refuse(checked!.problems);
    const id = newId();
    const now = this.clock();
    await this.repository.insertRecords(this.scope.companyId, this.form.id, [
      this.newRecord(id, checked!.data, now, 'add'),
    ]);
    return this.get(id, lang);
  }

  /** Validation is that of the fields as defined now; values of removed fields are kept. */
  async edit(id: string, data: TOnlineRecordData, lang: Lang): Promise<TOnlineRecord> {
    const existing = await this.requireRecord(id);
    const [checked] = await this.check([{ data, id }], lang, false);
    this.refuse(checked!.problems);
    const stored = parseData(existing.data);
    const current = new Set(this.fields.map((f) => f.key));
    const kept = Object.fromEntries(Object.entries(stored).filter(([k]) => !current.has(k)));
    const after = { ...kept, ...checked!.data };
    const now = this.clock();
    await this.repository.updateRecord(
      this.scope.companyId,
      this.form.id,
      id,
      { data: JSON.stringify(after), update_by: this.scope.username, update_time: now },
      indexValues(this.fields, after),
      this.historyRow(id, 'edit', changesBetween(stored, after), now),
    );
    return this.get(id, lang);
  }

  async delete(ids: string[]): Promise<number> {
    const unique = [...new Set(ids)];
    const found = await this.repository.findRecords(this.scope.companyId, this.form.id, unique);
    if (found.length === 0) throw notFound('onlineRecordNotFound');
    const now = this.clock();
    return this.repository.deleteRecords(
      this.scope.companyId,
      this.form.id,
      found.map((r) => r.id),
      found.map((r) => this.historyRow(r.id, 'delete', changesBetween(parseData(r.data), {}), now)),
    );
  }

  async history(query: TOnlineHistoryQuery, lang: Lang): Promise<Page<TOnlineHistoryEntry>> {
    const { rows, total } = await this.repository.historyPage(
      this.form.id,
      query.recordId,
      query.pageSize,
      (query.pageNo - 1) * query.pageSize,
    );
    const labels = new Map(this.fields.map((f) => [f.key, labelOf(f, lang)]));
    return pageResult(
      rows.map((r) => ({
        id: r.id,
        recordId: r.record_id,
        action: r.action as TOnlineHistoryEntry['action'],
        changes: (
          JSON.parse(r.changes) as { key: string; from: TOnlineValue; to: TOnlineValue }[]
        ).map((c) => ({ ...c, label: labels.get(c.key) ?? c.key })),
        createBy: r.create_by,
        createTime: iso(Number(r.create_time)),
      })),
      total,
      query,
    );
  }

  /* Sheets ------------------------------------------------------------------------------------ */

  async exportSheet(
    query: TOnlineRecordExportQuery,
    lang: Lang,
    timeZone: string,
  ): Promise<{ body: Readable; format: SheetFormat }> {
    const { filters, sort } = this.listing(query.search, query.column, query.order);
    const fields = this.fields;
    const columns = fields.map((f) => ({ header: labelOf(f, lang) }));
    const batches = async function* (self: FormRecords) {
      for await (const rows of self.repository.allRecords(
        self.scope.companyId,
        self.form,
        filters,
        sort,
        EXPORT_ROWS_MAX,
      )) {
        const names = await self.references(
          rows.map((r) => parseData(r.data)),
          lang,
          true,
        );
        yield rows.map((r) => {
          const data = parseData(r.data);
          return fields.map((f) => {
            const value = data[f.key];
            if (value === undefined || value === null) return '';
            const name = names.get(`${f.key}|${String(value)}`);
            if (name !== undefined && fits(f, value)) return name;
            if (f.type === 'datetime' && typeof value === 'string' && fits(f, value)) {
              return localDateTime(new Date(value), timeZone);
            }
            if (typeof value === 'boolean') return value ? '1' : '0';
            return String(value);
          });
        });
      }
    };
    return {
      body: sheetStream(query.format, this.form.code, columns, batches(this), timeZone),
      format: query.format,
    };
  }

  /**
   * Imports a sheet whose header names the fields (label in either language, or key). Every row
   * is checked like an added record; good rows are written, bad ones reported by row and column.
   * References may be written as people read them: a select's item text, a device's SN, a
   * location's name.
   */
  async importSheet(
    file: SheetUpload,
    dryRun: boolean,
    lang: Lang,
    timeZone: string,
  ): Promise<TOnlineRecordImportResult> {
    const kind = sheetKind(file);
    if (!kind) throw new AppError('onlineImportFileType', 400);
    const table = await readSheet(kind, file.content, {
      maxRows: ONLINE_FORM_IMPORT_ROWS_MAX,
      tooManyRows: () =>
        new AppError('onlineImportTooManyRows', 400, { max: ONLINE_FORM_IMPORT_ROWS_MAX }),
    });
    const byHeader = new Map<string, TOnlineField>();
    for (const f of this.fields) {
      for (const name of [f.key, f.label, f.labelEn]) if (name) byHeader.set(name.trim(), f);
    }
    const columns = table.header.map((h) => byHeader.get(h.trim()));
    if (!columns.some(Boolean)) {
      throw new AppError('onlineImportNoColumns', 400, {
        columns: this.fields.map((f) => labelOf(f, lang)).join(', '),
      });
    }
    const headerOf = new Map<string, string>();
    columns.forEach((f, i) => f && headerOf.set(f.key, table.header[i]!.trim()));

    const raw = table.rows.map(({ cells }) => {
      const data: Record<string, TOnlineValue> = {};
      columns.forEach((f, i) => {
        if (!f) return;
        let value = cellValue(f, cells[i] ?? '');
        if (f.type === 'datetime' && typeof value === 'string' && !value.includes('T')) {
          value = fromLocal(value, timeZone) ?? value;
        }
        data[f.key] = value;
      });
      return data;
    });
    await this.resolveNames(raw, lang);
    const checked = await this.check(
      raw.map((data) => ({ data, id: null })),
      lang,
      true,
    );
    const errors: TOnlineImportRowError[] = [];
    const good: { row: number; data: TOnlineRecordData }[] = [];
    checked.forEach((c, i) => {
      const row = table.rows[i]!.row;
      if (c.problems.length === 0) {
        good.push({ row, data: c.data });
        return;
      }
      for (const p of c.problems) {
        if (errors.length >= IMPORT_ERRORS_MAX) break;
        const key = p.field.replace(/^data\./, '');
        errors.push({ row, field: key, column: headerOf.get(key) ?? key, message: p.message });
      }
    });
    if (!dryRun && good.length > 0) {
      const now = this.clock();
      await this.repository.insertRecords(
        this.scope.companyId,
        this.form.id,
        good.map((g) => this.newRecord(newId(), g.data, now, 'import')),
      );
    }
    return {
      dryRun,
      total: table.rows.length,
      valid: good.length,
      invalid: table.rows.length - good.length,
      imported: dryRun ? 0 : good.length,
      preview: good.slice(0, 100),
      errors,
    };
  }

  /* Validation -------------------------------------------------------------------------------- */

  /**
   * Checks records against the definition: the contracts' rules (types, required, lengths,
   * ranges, patterns through RE2), then what the database knows: dictionary items, the company's
   * devices, locations and files, and unique values (in other records and within the batch).
   */
  private async check(
    inputs: { data: TOnlineRecordData; id: string | null }[],
    lang: Lang,
    withDefaults: boolean,
  ): Promise<Checked[]> {
    const schema = recordSchema(this.fields, { matchPattern });
    const results: Checked[] = inputs.map(({ data }) => {
      if (Buffer.byteLength(JSON.stringify(data)) > ONLINE_FORM_RECORD_MAX_BYTES) {
        return {
          data: {},
          problems: [
            {
              field: 'data',
              message: message(lang, 'onlineRecordTooLarge', {
                kb: ONLINE_FORM_RECORD_MAX_BYTES / 1024,
              }).replace(/^data: /, ''),
            },
          ],
        };
      }
      const input: Record<string, unknown> = { ...data };
      if (withDefaults) {
        for (const f of this.fields) {
          if (input[f.key] === undefined && 'defaultValue' in f && f.defaultValue != null) {
            input[f.key] = f.defaultValue;
          }
        }
      }
      const parsed = schema.safeParse(input);
      if (!parsed.success) {
        return { data: {}, problems: this.problems(parsed.error, lang) };
      }
      return { data: normalise(this.fields, parsed.data as TOnlineRecordData), problems: [] };
    });
    await this.checkReferences(results, lang);
    await this.checkUnique(results, inputs, lang);
    return results;
  }

  private problems(error: z.ZodError, lang: Lang): FieldProblem[] {
    const problems = recordProblems(error, this.fields, lang, 'data');
    // The pattern's hint, which the generic rule text cannot carry.
    for (const issue of error.issues) {
      const key = String(issue.path[0] ?? '');
      const field = this.fields.find((f) => f.key === key);
      if (issue.code !== 'custom' || field?.type !== 'text' || !field.pattern) continue;
      const at = problems.findIndex((p) => p.field === `data.${key}`);
      if (at < 0 || (issue as { params?: { rule?: string } }).params?.rule !== 'pattern') continue;
      problems[at] = {
        field: `data.${key}`,
        message: withLabel(
          labelOf(field, lang),
          message(lang, 'onlineRulePattern', { hint: field.patternHint ?? '' }),
          lang,
        ),
      };
    }
    return problems;
  }

  private fieldProblem(field: TOnlineField, lang: Lang, rule: string): FieldProblem {
    return { field: `data.${field.key}`, message: withLabel(labelOf(field, lang), rule, lang) };
  }

  private async checkReferences(results: Checked[], lang: Lang): Promise<void> {
    const ok = results.filter((r) => r.problems.length === 0);
    const valuesOf = (type: TOnlineField['type']) => [
      ...new Set(
        ok.flatMap((r) =>
          this.fields
            .filter((f) => f.type === type)
            .map((f) => r.data[f.key])
            .filter((v): v is string => typeof v === 'string'),
        ),
      ),
    ];
    const company = this.scope.companyId;
    const [devices, locations, files] = await Promise.all([
      this.repository.devices(company, valuesOf('device')),
      this.repository.locations(company, valuesOf('location')),
      this.repository.files(company, valuesOf('file')),
    ]);
    const deviceIds = new Set(devices.map((d) => d.id));
    const locationIds = new Set(locations.map((l) => l.id));
    const fileById = new Map(files.map((f) => [f.id, f]));
    const dictValues = new Map<string, Set<string>>();
    for (const f of this.fields) {
      if (f.type === 'select' && !dictValues.has(f.dictCode)) {
        const items = await this.deps.dicts.items(f.dictCode, lang, company);
        dictValues.set(f.dictCode, new Set(items.map((i) => i.value)));
      }
    }
    for (const r of ok) {
      for (const f of this.fields) {
        const v = r.data[f.key];
        if (typeof v !== 'string') continue;
        if (f.type === 'select' && !dictValues.get(f.dictCode)?.has(v)) {
          r.problems.push(this.fieldProblem(f, lang, message(lang, 'onlineRuleDictItem')));
        } else if (f.type === 'device' && !deviceIds.has(v)) {
          r.problems.push(this.fieldProblem(f, lang, message(lang, 'onlineRuleDevice')));
        } else if (f.type === 'location' && !locationIds.has(v)) {
          r.problems.push(this.fieldProblem(f, lang, message(lang, 'onlineRuleLocation')));
        } else if (f.type === 'file') {
          const file = fileById.get(v);
          if (!file) {
            r.problems.push(this.fieldProblem(f, lang, message(lang, 'onlineRuleFile')));
          } else if (
            f.accept?.length &&
            !f.accept.some((ext) => file.name.toLowerCase().endsWith(ext))
          ) {
            r.problems.push(
              this.fieldProblem(
                f,
                lang,
                message(lang, 'onlineRuleFileType', { accept: f.accept.join(', ') }),
              ),
            );
          } else if (f.maxSize && Number(file.size) > f.maxSize) {
            r.problems.push(
              this.fieldProblem(f, lang, message(lang, 'onlineRuleFileSize', { size: f.maxSize })),
            );
          }
        }
      }
    }
  }

  private async checkUnique(
    results: Checked[],
    inputs: { id: string | null }[],
    lang: Lang,
  ): Promise<void> {
    const unique = this.fields.filter((f) => f.unique);
    if (unique.length === 0) return;
    const seen = new Set<string>();
    for (const [i, r] of results.entries()) {
      if (r.problems.length > 0) continue;
      const keys = indexValues(unique, r.data).filter(
        (v): v is typeof v & { unique_key: string } => v.unique_key !== null,
      );
      const held = await this.repository.uniqueHolders(
        this.form.id,
        keys.map((k) => ({ field_key: k.field_key, unique_key: k.unique_key })),
        inputs[i]!.id,
      );
      const taken = new Set(held.map((h) => `${h.field_key}|${h.unique_key}`));
      for (const k of keys) {
        const id = `${k.field_key}|${k.unique_key}`;
        if (taken.has(id) || seen.has(id)) {
          const field = unique.find((f) => f.key === k.field_key)!;
          r.problems.push(this.fieldProblem(field, lang, message(lang, 'onlineRuleUnique')));
        }
        seen.add(id);
      }
    }
  }

  private refuse(problems: FieldProblem[]): void {
    if (problems.length > 0) {
      throw new AppError('onlineRecordInvalid', 400, { problems: problemsText(problems) });
    }
  }

  /* Helpers ------------------------------------------------------------------------------------ */

  private listing(search: string | undefined, column: string, order: 'asc' | 'desc') {
    let filters: Filter[];
    try {
      filters = parseSearch(search, this.fields);
    } catch (error) {
      if (error instanceof SearchProblem) {
        throw new AppError('onlineSearchInvalid', 400, { field: error.field });
      }
      throw error;
    }
    let sort: Sort;
    if ((ONLINE_RECORD_FIXED_SORTS as readonly string[]).includes(column)) {
      sort = { by: column === 'updateTime' ? 'update_time' : 'create_time', order };
    } else {
      const field = this.fields.find((f) => f.key === column && f.sortable);
      if (!field) throw new AppError('onlineSortInvalid', 400);
      const numeric = ['number', 'datetime', 'switch'].includes(field.type);
      sort = { by: 'field', key: field.key, column: numeric ? 'value_num' : 'value_text', order };
    }
    return { filters, sort };
  }

  private async requireRecord(id: string): Promise<RecordRow> {
    const row = await this.repository.findRecord(this.scope.companyId, this.form.id, id);
    if (!row) throw notFound('onlineRecordNotFound');
    return {
      ...row,
      create_time: Number(row.create_time),
      update_time: row.update_time === null ? null : Number(row.update_time),
    };
  }

  private newRecord(id: string, data: TOnlineRecordData, now: number, action: 'add' | 'import') {
    return {
      row: {
        id,
        form_id: this.form.id,
        data: JSON.stringify(data),
        create_by: this.scope.username,
        create_time: now,
        update_by: null,
        update_time: null,
      },
      values: indexValues(this.fields, data),
      history: this.historyRow(id, action, changesBetween({}, data), now),
    };
  }

  private historyRow(
    recordId: string,
    action: HistoryRow['action'],
    changes: ReturnType<typeof changesBetween>,
    now: number,
  ): HistoryRow {
    return {
      id: newId(),
      form_id: this.form.id,
      record_id: recordId,
      action,
      changes: JSON.stringify(changes),
      create_by: this.scope.username,
      create_time: now,
    };
  }

  /**
   * Display texts of reference values, by `key|value`: select item texts, device SN and name (SN
   * alone for a sheet), location and file names.
   */
  private async references(
    datas: TOnlineRecordData[],
    lang: Lang,
    forSheet: boolean,
  ): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const ids = (type: TOnlineField['type']) => [
      ...new Set(
        datas.flatMap((d) =>
          this.fields
            .filter((f) => f.type === type)
            .map((f) => d[f.key])
            .filter((v): v is string => typeof v === 'string'),
        ),
      ),
    ];
    const company = this.scope.companyId;
    const [devices, locations, files] = await Promise.all([
      this.repository.devices(
        company,
        ids('device').filter((v) => /^[0-9a-f]{32}$/.test(v)),
      ),
      this.repository.locations(
        company,
        ids('location').filter((v) => /^[0-9a-f]{32}$/.test(v)),
      ),
      this.repository.files(
        company,
        ids('file').filter((v) => /^[0-9a-f]{32}$/.test(v)),
      ),
    ]);
    const device = new Map(devices.map((d) => [d.id, forSheet ? d.sn : `${d.sn} / ${d.name}`]));
    const location = new Map(locations.map((l) => [l.id, l.name]));
    const file = new Map(files.map((f) => [f.id, f.name]));
    for (const f of this.fields) {
      let lookup: Map<string, string> | undefined;
      if (f.type === 'select') {
        const items = await this.deps.dicts.items(f.dictCode, lang, company);
        lookup = new Map(items.map((i) => [i.value, i.text]));
      } else if (f.type === 'device') lookup = device;
      else if (f.type === 'location') lookup = location;
      else if (f.type === 'file' && !forSheet) lookup = file;
      if (!lookup) continue;
      for (const [value, text] of lookup) names.set(`${f.key}|${value}`, text);
    }
    return names;
  }

  /** Import cells naming references as people read them, turned into the values stored. */
  private async resolveNames(rows: Record<string, TOnlineValue>[], lang: Lang): Promise<void> {
    const company = this.scope.companyId;
    const texts = (type: TOnlineField['type']) => [
      ...new Set(
        rows.flatMap((d) =>
          this.fields
            .filter((f) => f.type === type)
            .map((f) => d[f.key])
            .filter((v): v is string => typeof v === 'string' && !/^[0-9a-f]{32}$/.test(v)),
        ),
      ),
    ];
    const [devices, locations] = await Promise.all([
      this.repository.devicesBySn(company, texts('device')),
      this.repository.locationsByName(company, texts('location')),
    ]);
    const deviceBySn = new Map(devices.map((d) => [d.sn, d.id]));
    // A name two locations share is left as written, and reported as not a location.
    const locationCount = new Map<string, number>();
    for (const l of locations) locationCount.set(l.name, (locationCount.get(l.name) ?? 0) + 1);
    const locationByName = new Map(
      locations.filter((l) => locationCount.get(l.name) === 1).map((l) => [l.name, l.id]),
    );
    for (const f of this.fields) {
      let lookup: Map<string, string> | undefined;
      if (f.type === 'select') {
        const items = await this.deps.dicts.items(f.dictCode, lang, company);
        const other = await this.deps.dicts.items(
          f.dictCode,
          lang === 'en-US' ? 'zh-CN' : 'en-US',
          company,
        );
        lookup = new Map([...other, ...items].map((i) => [i.text, i.value]));
        for (const i of items) lookup.set(i.value, i.value);
      } else if (f.type === 'device') lookup = deviceBySn;
      else if (f.type === 'location') lookup = locationByName;
      if (!lookup) continue;
      for (const row of rows) {
        const v = row[f.key];
        if (typeof v === 'string' && lookup.has(v)) row[f.key] = lookup.get(v)!;
      }
    }
  }

  /** Rows as the API shows them: the current fields' values, display texts, stale keys. */
  private async present(rows: RecordRow[], lang: Lang): Promise<TOnlineRecord[]> {
    const datas = rows.map((r) => parseData(r.data));
    const names = await this.references(datas, lang, false);
    return rows.map((r, i) => {
      const stored = datas[i]!;
      const data: TOnlineRecordData = {};
      const display: Record<string, string> = {};
      const stale: string[] = [];
      for (const f of this.fields) {
        const value = stored[f.key];
        if (value === undefined) continue;
        if (!fits(f, value)) {
          data[f.key] = null;
          display[f.key] = String(value);
          stale.push(f.key);
          continue;
        }
        data[f.key] = value;
        const name = value === null ? undefined : names.get(`${f.key}|${String(value)}`);
        if (name !== undefined) display[f.key] = name;
      }
      return {
        id: r.id,
        data,
        display,
        stale,
        createBy: r.create_by,
        createTime: iso(Number(r.create_time)),
        updateBy: r.update_by,
        updateTime: isoOrNull(r.update_time === null ? null : Number(r.update_time)),
      };
    });
  }
}
