import {
  DICT_IMPORT_ROWS_MAX,
  DICT_ITEMS_MAX,
  DICT_SHEET_COLUMNS,
  DICTS_MAX,
  ZDictEdit,
  ZDictInput,
  ZDictItemEdit,
  ZDictItemInput,
  type TDict,
  type TDictExportQuery,
  type TDictImportResult,
  type TDictImportRowError,
  type TDictItem,
  type TDictItemCheckQuery,
  type TDictItemListQuery,
  type TDictItemPage,
  type TDictItemRow,
  type TDictListQuery,
  type TDictPage,
  type TDictSheetColumn,
} from '@blrms/contracts';
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { isUniqueViolation } from '../../platform/db/unique-violation.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import { pageResult, iso, isoOrNull } from '../../platform/http/paging.js';
import { readSheet, sheetKind, type SheetUpload } from '../../platform/sheet/sheet-reader.js';
import type { SheetCell } from '../../platform/sheet/sheet-cells.js';
import { sheetStream } from '../../platform/sheet/sheet-writer.js';
import {
  DICT_SHEET_HEADERS,
  DICT_SHEET_MAX_LENGTH,
  DICT_SHEET_REQUIRED,
  SORT_PATTERN,
  STATUS_PATTERN,
  hasControlChars,
  isDictCode,
  mapDictHeader,
} from './dict-sheet.rules.js';
import type {
  DictImportWrite,
  DictItemRow,
  DictRepository,
  DictRow,
  NewDict,
} from './dict.repository.js';

/** Entries of the items cache, per node: (company, code) pairs a node has answered. */
const CACHE_MAX = 10_000;
/** Row errors an import reports at most; the file is refused with the first of them anyway. */
const IMPORT_ERRORS_MAX = 200;
/** Dictionaries per export batch: memory stays flat however many there are. */
const EXPORT_BATCH = 50;

type CachedItems = Pick<DictItemRow, 'item_value' | 'item_text' | 'item_text_en' | 'item_color'>[];

function toItem(row: DictItemRow): TDictItemRow {
  return {
    id: row.id,
    dictId: row.dict_id,
    itemText: row.item_text,
    itemTextEn: row.item_text_en,
    itemValue: row.item_value,
    itemColor: row.item_color,
    description: row.description,
    sortOrder: row.sort_order,
    status: row.status === 1 ? 1 : 0,
    createTime: iso(row.create_time),
    updateTime: isoOrNull(row.update_time),
  };
}

export class DictService {
  private readonly cache = new Map<string, Promise<CachedItems | null>>();

  constructor(
    private readonly repository: DictRepository,
    private readonly permissions: PermissionService,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {
    bus.subscribe('dict.changed', ({ companyId }) => this.drop(companyId));
    // Changes published elsewhere during the gap never arrived: everything is read again.
    bus.subscribe('bus.resumed', () => this.drop(undefined));
  }

  /**
   * Enabled items of a dictionary in the company (its own of the code, else the platform's),
   * labelled in `lang`. Cached per node until a change of the company's or the platform's
   * dictionaries. Only stored codes are read: a code never names a table or a filter.
   */
  async items(
    dictCode: string,
    lang: Lang,
    companyId: string = PLATFORM_COMPANY_ID,
  ): Promise<TDictItem[]> {
    const key = `${companyId}|${dictCode}`;
    let cached = this.cache.get(key);
    if (!cached) {
      if (this.cache.size >= CACHE_MAX) {
        const oldest = this.cache.keys().next().value;
        if (oldest !== undefined) this.cache.delete(oldest);
      }
      cached = this.load(companyId, dictCode);
      this.cache.set(key, cached);
      cached.catch(() => this.cache.delete(key));
    }
    const rows = await cached;
    if (!rows) throw notFound('dictNotFound');
    return rows.map((r) => {
      const text = lang === 'en-US' ? (r.item_text_en ?? r.item_text) : r.item_text;
      return { value: r.item_value, text, label: text, color: r.item_color };
    });
  }

  private async load(companyId: string, dictCode: string): Promise<CachedItems | null> {
    const dict = await this.repository.resolve(companyId, PLATFORM_COMPANY_ID, dictCode);
    return dict ? this.repository.enabledItems(dict.id) : null;
  }

  private drop(companyId: string | undefined): void {
    if (companyId === undefined || companyId === PLATFORM_COMPANY_ID) {
      this.cache.clear();
      return;
    }
    for (const key of this.cache.keys())
      if (key.startsWith(`${companyId}|`)) this.cache.delete(key);
  }

  /** Every node drops its cached items (`/sys/dict/refleshCache`). */
  async refreshCaches(): Promise<void> {
    await this.bus.publish('dict.changed', {});
  }

  private changed(companyId: string): Promise<void> {
    return this.bus.publish('dict.changed', { companyId });
  }

  private async isPlatformAdmin(scope: Scope): Promise<boolean> {
    return (await this.permissions.grantsIn(scope)).platformAdmin;
  }

  /* Dictionaries ------------------------------------------------------------------------------ */

  private toDict(row: DictRow, platformAdmin: boolean, overridden: Set<string>): TDict {
    const platform = row.company_id === PLATFORM_COMPANY_ID;
    return {
      id: row.id,
      dictName: row.dict_name,
      dictNameEn: row.dict_name_en,
      dictCode: row.dict_code,
      description: row.description,
      platform,
      editable: !platform || platformAdmin,
      overridden: platform && overridden.has(row.dict_code),
      createTime: iso(row.create_time),
      updateTime: isoOrNull(row.update_time),
    };
  }

  /** The company's dictionaries and the platform's, the platform's read-only to a company. */
  async list(scope: Scope, query: TDictListQuery): Promise<TDictPage> {
    return this.pageOf(scope, query, false);
  }

  /** The recycle bin: the company's deleted dictionaries (and the platform's, to its admins). */
  async recycleBin(scope: Scope, query: TDictListQuery): Promise<TDictPage> {
    return this.pageOf(scope, query, true);
  }

  private async pageOf(scope: Scope, query: TDictListQuery, deleted: boolean) {
    const platformAdmin = await this.isPlatformAdmin(scope);
    const withPlatform = !deleted || platformAdmin ? PLATFORM_COMPANY_ID : null;
    const { records, total } = await this.repository.page(
      scope.companyId,
      withPlatform,
      query,
      deleted,
    );
    const platformCodes = records
      .filter((r) => r.company_id === PLATFORM_COMPANY_ID)
      .map((r) => r.dict_code);
    const overridden =
      scope.companyId === PLATFORM_COMPANY_ID || deleted
        ? new Set<string>()
        : await this.repository.liveCodesIn(scope.companyId, platformCodes);
    return pageResult(
      records.map((r) => this.toDict(r, platformAdmin, overridden)),
      total,
      query,
    );
  }

  /**
   * A dictionary the caller may see: the company's own, or the platform's; a recycled platform
   * dictionary only to platform administrators. Anything else answers 404.
   */
  private async locate(scope: Scope, id: string, deleted: boolean): Promise<DictRow> {
    let row = await this.repository.findIn(scope.companyId, id);
    if (!row && scope.companyId !== PLATFORM_COMPANY_ID) {
      row = await this.repository.findIn(PLATFORM_COMPANY_ID, id);
      if (row && deleted && !(await this.isPlatformAdmin(scope))) row = undefined;
    }
    if (!row || (row.del_flag === 1) !== deleted) throw notFound('dictNotFound');
    return row;
  }

  /** Platform dictionaries are changed by platform administrators only. */
  private async assertWritable(scope: Scope, companyId: string): Promise<void> {
    if (companyId === PLATFORM_COMPANY_ID && !(await this.isPlatformAdmin(scope))) {
      throw forbidden('dictPlatformReadOnly');
    }
  }

  async add(scope: Scope, body: z.input<typeof ZDictInput>): Promise<TDict> {
    const input = ZDictInput.parse(body);
    const companyId = scope.companyId;
    await this.assertWritable(scope, companyId);
    await this.assertCodeFree(companyId, input.dictCode);
    if ((await this.repository.countIn(companyId)) >= DICTS_MAX) {
      throw new AppError('dictTooMany', 400, { max: DICTS_MAX });
    }
    const row: NewDict = {
      id: newId(),
      dict_name: input.dictName,
      dict_name_en: input.dictNameEn || null,
      dict_code: input.dictCode,
      description: input.description || null,
      del_flag: 0,
      create_by: scope.username,
      create_time: this.clock(),
      update_time: null,
    };
    await this.uniqueCode(() => this.repository.insert(companyId, row));
    await this.changed(companyId);
    return this.toDict({ ...row, company_id: companyId }, true, new Set());
  }

  async edit(scope: Scope, body: z.input<typeof ZDictEdit>): Promise<TDict> {
    const input = ZDictEdit.parse(body);
    const dict = await this.locate(scope, input.id, false);
    await this.assertWritable(scope, dict.company_id);
    if (input.dictCode !== dict.dict_code)
      await this.assertCodeFree(dict.company_id, input.dictCode);
    const change = {
      dict_name: input.dictName,
      dict_name_en: input.dictNameEn || null,
      dict_code: input.dictCode,
      description: input.description || null,
    };
    const at = this.clock();
    const updated = await this.uniqueCode(() =>
      this.repository.update(dict.company_id, dict.id, change, at),
    );
    if (!updated) throw notFound('dictNotFound');
    await this.changed(dict.company_id);
    return this.toDict({ ...dict, ...change, update_time: at }, true, new Set());
  }

  private async assertCodeFree(companyId: string, code: string): Promise<void> {
    const taken = await this.repository.findCodeIn(companyId, code);
    if (taken) {
      throw new AppError(taken.del_flag === 1 ? 'dictCodeInRecycleBin' : 'dictCodeExists', 409);
    }
  }

  /** Two requests adding the same code at once: the unique index decides, the loser gets 409. */
  private async uniqueCode<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('dictCodeExists', 409);
      throw error;
    }
  }

  /** Moves dictionaries to the recycle bin; one the caller may not change refuses the batch. */
  async delete(scope: Scope, ids: string[]): Promise<void> {
    const unique = [...new Set(ids)];
    const dicts: DictRow[] = [];
    for (const id of unique) dicts.push(await this.locate(scope, id, false));
    for (const owner of new Set(dicts.map((d) => d.company_id))) {
      await this.assertWritable(scope, owner);
    }
    const at = this.clock();
    for (const owner of new Set(dicts.map((d) => d.company_id))) {
      const mine = dicts.filter((d) => d.company_id === owner).map((d) => d.id);
      await this.repository.setDeleted(owner, mine, true, at);
      await this.changed(owner);
    }
  }

  async restore(scope: Scope, id: string): Promise<void> {
    const dict = await this.locate(scope, id, true);
    await this.assertWritable(scope, dict.company_id);
    if ((await this.repository.setDeleted(dict.company_id, [id], false, this.clock())) === 0) {
      throw notFound('dictNotFound');
    }
    await this.changed(dict.company_id);
  }

  /** Deletes a dictionary of the recycle bin for good, with its items. */
  async purge(scope: Scope, id: string): Promise<void> {
    const dict = await this.locate(scope, id, true);
    await this.assertWritable(scope, dict.company_id);
    if (!(await this.repository.purge(dict.company_id, id))) throw notFound('dictNotFound');
    await this.changed(dict.company_id);
  }

  /* Items ------------------------------------------------------------------------------------- */

  async itemList(scope: Scope, query: TDictItemListQuery): Promise<TDictItemPage> {
    await this.locate(scope, query.dictId, false);
    const { records, total } = await this.repository.itemPage(query);
    return pageResult(records.map(toItem), total, query);
  }

  /** Resolves when the value is free in the dictionary; 409 when another item has it. */
  async itemCheck(scope: Scope, query: TDictItemCheckQuery): Promise<void> {
    await this.locate(scope, query.dictId, false);
    if (await this.repository.itemValueTaken(query.dictId, query.itemValue.trim(), query.id)) {
      throw new AppError('dictItemValueExists', 409);
    }
  }

  async addItem(scope: Scope, body: z.input<typeof ZDictItemInput>): Promise<TDictItemRow> {
    const input = ZDictItemInput.parse(body);
    const dict = await this.locate(scope, input.dictId, false);
    await this.assertWritable(scope, dict.company_id);
    if ((await this.repository.itemCount(dict.id)) >= DICT_ITEMS_MAX) {
      throw new AppError('dictItemsTooMany', 400, { max: DICT_ITEMS_MAX });
    }
    if (await this.repository.itemValueTaken(dict.id, input.itemValue)) {
      throw new AppError('dictItemValueExists', 409);
    }
    const row: DictItemRow = {
      id: newId(),
      dict_id: dict.id,
      item_text: input.itemText,
      item_text_en: input.itemTextEn || null,
      item_value: input.itemValue,
      item_color: input.itemColor || null,
      description: input.description || null,
      sort_order: input.sortOrder,
      status: input.status,
      create_time: this.clock(),
      update_time: null,
    };
    await this.uniqueValue(() => this.repository.insertItem(row));
    await this.changed(dict.company_id);
    return toItem(row);
  }

  async editItem(scope: Scope, body: z.input<typeof ZDictItemEdit>): Promise<TDictItemRow> {
    const input = ZDictItemEdit.parse(body);
    const item = await this.repository.findItem(input.id);
    if (!item) throw notFound('dictItemNotFound');
    const dict = await this.locateItemDict(scope, item.dict_id);
    await this.assertWritable(scope, dict.company_id);
    if (await this.repository.itemValueTaken(dict.id, input.itemValue, item.id)) {
      throw new AppError('dictItemValueExists', 409);
    }
    const change = {
      item_text: input.itemText,
      item_text_en: input.itemTextEn || null,
      item_value: input.itemValue,
      item_color: input.itemColor || null,
      description: input.description || null,
      sort_order: input.sortOrder,
      status: input.status,
      update_time: this.clock(),
    };
    const updated = await this.uniqueValue(() =>
      this.repository.updateItem(dict.id, item.id, change),
    );
    if (!updated) throw notFound('dictItemNotFound');
    await this.changed(dict.company_id);
    return toItem({ ...item, ...change });
  }

  async deleteItems(scope: Scope, ids: string[]): Promise<void> {
    const byDict = new Map<string, string[]>();
    for (const id of new Set(ids)) {
      const item = await this.repository.findItem(id);
      if (!item) throw notFound('dictItemNotFound');
      byDict.set(item.dict_id, [...(byDict.get(item.dict_id) ?? []), id]);
    }
    const dicts: DictRow[] = [];
    for (const dictId of byDict.keys()) {
      const dict = await this.locateItemDict(scope, dictId);
      await this.assertWritable(scope, dict.company_id);
      dicts.push(dict);
    }
    for (const dict of dicts) {
      await this.repository.deleteItems(dict.id, byDict.get(dict.id) ?? []);
      await this.changed(dict.company_id);
    }
  }

  /** An item's dictionary, seen as its item: another company's item is a missing item. */
  private async locateItemDict(scope: Scope, dictId: string): Promise<DictRow> {
    try {
      return await this.locate(scope, dictId, false);
    } catch (error) {
      if (error instanceof AppError && error.httpStatus === 404) throw notFound('dictItemNotFound');
      throw error;
    }
  }

  private async uniqueValue<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('dictItemValueExists', 409);
      throw error;
    }
  }

  /* Export and import ------------------------------------------------------------------------- */

  /**
   * The company's own live dictionaries (the platform's for the platform company) as an XLSX,
   * one row per item: what an import takes back. Platform dictionaries are left out of a
   * company's export, so that importing it back does not turn them into the company's own.
   */
  async exportSheet(scope: Scope, query: TDictExportQuery, lang: Lang, timeZone: string) {
    const dicts = await this.repository.exportDicts(scope.companyId, query);
    const repository = this.repository;
    async function* batches(): AsyncGenerator<SheetCell[][]> {
      for (let at = 0; at < dicts.length; at += EXPORT_BATCH) {
        const batch = dicts.slice(at, at + EXPORT_BATCH);
        const items = await repository.itemsOf(batch.map((d) => d.id));
        const rows: SheetCell[][] = [];
        for (const d of batch) {
          const head = [d.dict_code, d.dict_name, d.dict_name_en ?? '', d.description ?? ''];
          const mine = items.filter((i) => i.dict_id === d.id);
          if (mine.length === 0) rows.push([...head, '', '', '', '', '', '']);
          for (const i of mine) {
            rows.push([
              ...head,
              i.item_value,
              i.item_text,
              i.item_text_en ?? '',
              i.description ?? '',
              String(i.sort_order),
              String(i.status),
            ]);
          }
        }
        yield rows;
      }
    }
    const columns = DICT_SHEET_COLUMNS.map((c) => ({ header: DICT_SHEET_HEADERS[c][lang] }));
    const sheetName = lang === 'en-US' ? 'Dictionaries' : '数据字典';
    return sheetStream('xlsx', sheetName, columns, batches(), timeZone) as Readable;
  }

  /**
   * Adds the file's dictionaries to the company and adds or updates their items by value; never
   * deletes. All or nothing: every row is checked first, and with any error nothing is written.
   */
  async importSheet(scope: Scope, file: SheetUpload, lang: Lang): Promise<TDictImportResult> {
    const companyId = scope.companyId;
    await this.assertWritable(scope, companyId);
    if (sheetKind(file) !== 'xlsx') throw new AppError('dictImportFileType', 400);
    const table = await readSheet('xlsx', file.content, {
      maxRows: DICT_IMPORT_ROWS_MAX,
      tooManyRows: () => new AppError('dictImportTooManyRows', 400, { max: DICT_IMPORT_ROWS_MAX }),
    });
    const columns = mapDictHeader(table.header);
    if (!DICT_SHEET_REQUIRED.every((c) => columns.has(c))) {
      throw new AppError('dictImportNoHeader', 400, {
        columns: DICT_SHEET_REQUIRED.map((c) => DICT_SHEET_HEADERS[c][lang]).join(', '),
      });
    }
    const rows = table.rows.map(({ row, cells }) => ({
      row,
      v: Object.fromEntries(
        DICT_SHEET_COLUMNS.map((c) => {
          const at = columns.get(c);
          return [c, at === undefined ? '' : (cells[at] ?? '').trim()];
        }),
      ) as Record<TDictSheetColumn, string>,
    }));

    const errors: TDictImportRowError[] = [];
    const error = (row: number, field: string, key: MessageKey, params = {}) => {
      if (errors.length < IMPORT_ERRORS_MAX) {
        errors.push({ row, field, message: message(lang, key, params) });
      }
    };
    const state = await this.repository.importState(companyId);
    const existing = new Map(state.dicts.map((d) => [d.dict_code, d]));
    const itemsByDict = new Map<string, Map<string, DictItemRow>>();
    for (const i of state.items) {
      const of = itemsByDict.get(i.dict_id) ?? new Map<string, DictItemRow>();
      of.set(i.item_value, i);
      itemsByDict.set(i.dict_id, of);
    }

    interface FileDict {
      firstRow: number;
      name: string;
      nameEn: string;
      description: string;
      items: { row: number; v: Record<TDictSheetColumn, string> }[];
    }
    const fileDicts = new Map<string, FileDict>();
    const firstRowOfValue = new Map<string, number>();
    for (const { row, v } of rows) {
      const before = errors.length;
      for (const c of DICT_SHEET_COLUMNS) {
        if (v[c].length > DICT_SHEET_MAX_LENGTH[c] && c !== 'sortOrder' && c !== 'status') {
          error(row, c, 'dictRowTooLong', { max: DICT_SHEET_MAX_LENGTH[c] });
        } else if (hasControlChars(v[c])) error(row, c, 'dictRowControlChars');
      }
      if (v.dictCode === '') error(row, 'dictCode', 'dictRowRequired');
      else if (!isDictCode(v.dictCode)) error(row, 'dictCode', 'dictRowBadCode');
      else if (existing.get(v.dictCode)?.del_flag === 1) {
        error(row, 'dictCode', 'dictRowInRecycleBin');
      }
      const hasItem = (
        ['itemValue', 'itemText', 'itemTextEn', 'itemDescription', 'sortOrder', 'status'] as const
      ).some((c) => v[c] !== '');
      if (hasItem) {
        if (v.itemValue === '') error(row, 'itemValue', 'dictRowRequired');
        if (v.itemText === '') error(row, 'itemText', 'dictRowRequired');
        if (v.sortOrder !== '' && !SORT_PATTERN.test(v.sortOrder)) {
          error(row, 'sortOrder', 'dictRowBadSort');
        }
        if (v.status !== '' && !STATUS_PATTERN.test(v.status)) {
          error(row, 'status', 'dictRowBadStatus');
        }
        const key = `${v.dictCode}\u0000${v.itemValue}`;
        const first = firstRowOfValue.get(key);
        if (first !== undefined && v.itemValue !== '') {
          error(row, 'itemValue', 'dictRowDuplicateValue', { row: first });
        } else firstRowOfValue.set(key, row);
      }
      if (errors.length > before || v.dictCode === '') continue;
      const dict = fileDicts.get(v.dictCode) ?? {
        firstRow: row,
        name: '',
        nameEn: '',
        description: '',
        items: [],
      };
      dict.name ||= v.dictName;
      dict.nameEn ||= v.dictNameEn;
      dict.description ||= v.dictDescription;
      if (hasItem) dict.items.push({ row, v });
      fileDicts.set(v.dictCode, dict);
    }

    const now = this.clock();
    const write: DictImportWrite = {
      newDicts: [],
      changedDicts: [],
      newItems: [],
      changedItems: [],
    };
    let liveCount = state.dicts.length;
    for (const [code, d] of fileDicts) {
      const current = existing.get(code);
      if (!current && d.name === '') error(d.firstRow, 'dictName', 'dictRowRequired');
      if (!current && ++liveCount > DICTS_MAX) {
        error(d.firstRow, 'row', 'dictRowTooManyDicts', { max: DICTS_MAX });
      }
      const dictId = current?.id ?? newId();
      const have = (current && itemsByDict.get(current.id)) ?? new Map<string, DictItemRow>();
      const added = d.items.filter((i) => !have.has(i.v.itemValue)).length;
      if (have.size + added > DICT_ITEMS_MAX) {
        error(d.firstRow, 'row', 'dictRowTooManyItems', { max: DICT_ITEMS_MAX });
      }
      if (!current) {
        write.newDicts.push({
          id: dictId,
          dict_code: code,
          dict_name: d.name,
          dict_name_en: d.nameEn || null,
          description: d.description || null,
          del_flag: 0,
          create_by: scope.username,
          create_time: now,
          update_time: null,
        });
      } else if (d.name || d.nameEn || d.description) {
        write.changedDicts.push({
          id: current.id,
          change: {
            dict_name: d.name || current.dict_name,
            dict_name_en: d.nameEn || current.dict_name_en,
            description: d.description || current.description,
          },
          at: now,
        });
      }
      d.items.forEach(({ v }, index) => {
        const before = have.get(v.itemValue);
        const fields = {
          item_text: v.itemText,
          item_text_en: v.itemTextEn || (before ? before.item_text_en : null),
          item_color: before?.item_color ?? null,
          description: v.itemDescription || (before ? before.description : null),
          sort_order:
            v.sortOrder !== '' ? Number(v.sortOrder) : (before?.sort_order ?? have.size + index),
          status: v.status !== '' ? Number(v.status) : (before?.status ?? 1),
        };
        if (before) {
          write.changedItems.push({
            id: before.id,
            dictId,
            change: { ...fields, item_value: v.itemValue, update_time: now },
          });
        } else {
          write.newItems.push({
            id: newId(),
            dict_id: dictId,
            item_value: v.itemValue,
            ...fields,
            create_time: now,
            update_time: null,
          });
        }
      });
    }
    errors.sort((a, b) => a.row - b.row);
    const result = {
      dictsCreated: write.newDicts.length,
      dictsUpdated: write.changedDicts.length,
      itemsCreated: write.newItems.length,
      itemsUpdated: write.changedItems.length,
    };
    if (errors.length > 0) {
      return {
        applied: false,
        dictsCreated: 0,
        dictsUpdated: 0,
        itemsCreated: 0,
        itemsUpdated: 0,
        errors,
      };
    }
    await this.uniqueCode(() => this.repository.writeImport(companyId, write));
    await this.changed(companyId);
    return { applied: true, ...result, errors: [] };
  }
}
