import {
  DEVICE_SERIES,
  GOODS_SHEET_COLUMNS,
  ZGoodsInput,
  type TBaseImportResult,
  type TGoods,
  type TGoodsEdit,
  type TGoodsExportQuery,
  type TGoodsInput,
  type TGoodsListQuery,
  type TGoodsPage,
  type TGoodsSheetColumn,
  type TOssFileLink,
} from '@blrms/contracts';
import type { Scope } from '../../platform/auth/scope.js';
import { requireAccess, requireAccessToAll } from '../../platform/auth/access.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { isUniqueViolation } from '../../platform/db/unique-violation.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import { iso, isoOrNull, pageResult } from '../../platform/http/paging.js';
import type { SheetUpload } from '../../platform/sheet/sheet-reader.js';
import type { OssFileService } from '../oss-file/oss-file.service.js';
import { exportFile, importRows } from './base-data-export.service.js';
import { RowErrors, schemaProblems, type SheetSpec } from './base-data-sheet.rules.js';
import {
  goodsKey,
  type GoodsRepository,
  type GoodsRow,
  type NewGoods,
} from './goods.repository.js';

/** What a datasheet may be: a PDF or a picture (never SVG, which can carry script). */
const DATASHEET_TYPES = new Set([
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);

export const GOODS_SHEET: SheetSpec<TGoodsSheetColumn> = {
  columns: GOODS_SHEET_COLUMNS,
  labels: {
    series: 'baseColumnSeries',
    model: 'baseColumnModel',
    hwRevision: 'baseColumnHwRevision',
    description: 'baseColumnDescription',
    enabled: 'baseColumnEnabled',
  },
  required: ['series', 'model'],
};

function toGoods(row: GoodsRow): TGoods {
  return {
    id: row.id,
    series: row.series as TGoods['series'],
    model: row.model,
    hwRevision: row.hw_revision,
    description: row.description,
    datasheetFileId: row.datasheet_file_id,
    datasheetFileName: row.datasheet_file_id ? row.datasheet_file_name : null,
    enabled: row.enabled === 1 ? 1 : 0,
    createTime: iso(row.create_time),
    updateTime: isoOrNull(row.update_time),
  };
}

/** Goods (基础数据 → 物料): what a device is — a series' model and hardware revision. */
export class GoodsService {
  constructor(
    private readonly repository: GoodsRepository,
    private readonly ossFiles: OssFileService,
    private readonly clock: Clock,
  ) {}

  async list(scope: Scope, query: TGoodsListQuery): Promise<TGoodsPage> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    return pageResult(records.map(toGoods), total, query);
  }

  async get(scope: Scope, id: string): Promise<TGoods> {
    return toGoods(await this.require(scope, id));
  }

  private require(scope: Scope, id: string): Promise<GoodsRow> {
    return requireAccess(this.repository.findIn(scope.companyId, id), 'baseGoodsNotFound');
  }

  async add(scope: Scope, input: TGoodsInput): Promise<TGoods> {
    const values = ZGoodsInput.parse(input);
    await this.checkDatasheet(scope, values.datasheetFileId);
    const id = newId();
    await this.unique(() =>
      this.repository.insert(scope.companyId, [
        {
          id,
          series: values.series,
          model: values.model,
          hw_revision: values.hwRevision,
          description: values.description,
          datasheet_file_id: values.datasheetFileId,
          enabled: values.enabled,
          create_by: scope.username,
          create_time: this.clock(),
          update_time: null,
        },
      ]),
    );
    return this.get(scope, id);
  }

  async edit(scope: Scope, input: TGoodsEdit): Promise<TGoods> {
    const { id, ...rest } = input;
    const values = ZGoodsInput.parse(rest);
    const current = await this.require(scope, id);
    // A datasheet kept as it was is not checked again: its type was checked when it was chosen.
    if (values.datasheetFileId !== current.datasheet_file_id) {
      await this.checkDatasheet(scope, values.datasheetFileId);
    }
    await this.unique(() =>
      this.repository.update(scope.companyId, id, {
        series: values.series,
        model: values.model,
        hw_revision: values.hwRevision,
        description: values.description,
        datasheet_file_id: values.datasheetFileId,
        enabled: values.enabled,
        update_time: this.clock(),
      }),
    );
    return this.get(scope, id);
  }

  /** All or none: 404 when one id is not the company's, 409 while a device references one. */
  async delete(scope: Scope, ids: string[]): Promise<number> {
    const found = await requireAccessToAll(
      ids,
      (unique) => this.repository.existingIds(scope.companyId, unique),
      'baseGoodsNotFound',
    );
    const devices = await this.repository.deleteUnreferenced(scope.companyId, found);
    if (devices > 0) throw new AppError('baseGoodsInUse', 409, { count: devices });
    return found.length;
  }

  /** A short-lived link to download the goods' datasheet (the file library's signed link). */
  async datasheetLink(scope: Scope, id: string): Promise<TOssFileLink> {
    const goods = await this.require(scope, id);
    if (!goods.datasheet_file_id) throw new AppError('baseGoodsNoDatasheet', 404);
    return this.ossFiles.link(scope, goods.datasheet_file_id, 'download');
  }

  private async checkDatasheet(scope: Scope, fileId: string | null): Promise<void> {
    if (fileId === null) return;
    const file = await this.ossFiles.get(scope, fileId).catch((error: unknown) => {
      if (error instanceof AppError && error.httpStatus === 404) {
        throw new AppError('baseGoodsDatasheetNotFound', 400);
      }
      throw error;
    });
    if (!DATASHEET_TYPES.has(file.contentType)) throw new AppError('baseGoodsDatasheetType', 400);
  }

  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('baseGoodsModelExists', 400);
      throw error;
    }
  }

  exportFile(scope: Scope, query: TGoodsExportQuery, lang: Lang) {
    const { format, tz, _t, ...filter } = query;
    const label = (key: MessageKey) => message(lang, key);
    return exportFile({
      name: 'goods',
      sheetName: label('baseSheetGoods'),
      format,
      timeZone: tz,
      now: this.clock(),
      columns: [
        ...GOODS_SHEET_COLUMNS.map((c) => ({ header: label(GOODS_SHEET.labels[c]) })),
        { header: label('baseColumnCreateTime'), time: true },
      ],
      read: (limit, offset) =>
        this.repository.exportBatch(scope.companyId, { ...filter, format, _t }, limit, offset),
      cells: (row) => [
        row.series,
        row.model,
        row.hw_revision,
        row.description ?? '',
        String(row.enabled),
        new Date(row.create_time),
      ],
    });
  }

  /**
   * Checks every row; writes the good new ones (not in a preview). Goods already there (same
   * model and hardware revision) are counted as existing and left as they are.
   */
  async importSheet(
    scope: Scope,
    file: SheetUpload,
    dryRun: boolean,
    lang: Lang,
  ): Promise<TBaseImportResult> {
    const rows = await importRows(GOODS_SHEET, file, lang);
    const have = await this.repository.keys(scope.companyId);
    const errors = new RowErrors(lang);
    const firstRow = new Map<string, number>();
    const fresh: NewGoods[] = [];
    let existing = 0;
    const now = this.clock();
    for (const { row, v } of rows) {
      const series =
        DEVICE_SERIES.find((s) => s.toLowerCase() === v.series.toLowerCase()) ?? v.series;
      if (v.enabled !== '' && v.enabled !== '0' && v.enabled !== '1') {
        errors.add(row, 'enabled', 'baseRowBadValue', { values: '1, 0' });
      }
      const parsed = ZGoodsInput.safeParse({
        series,
        model: v.model,
        hwRevision: v.hwRevision,
        description: v.description,
        enabled: v.enabled === '0' ? 0 : 1,
      });
      if (!parsed.success) errors.push(...schemaProblems(parsed.error, row, lang));
      if (errors.has(row) || !parsed.success) continue;
      const values = parsed.data;
      const key = goodsKey(values.model, values.hwRevision);
      const first = firstRow.get(key);
      if (first !== undefined) {
        errors.add(row, 'model', 'baseRowDuplicate', { row: first });
        continue;
      }
      firstRow.set(key, row);
      if (have.has(key)) {
        existing += 1;
        continue;
      }
      fresh.push({
        id: newId(),
        series: values.series,
        model: values.model,
        hw_revision: values.hwRevision,
        description: values.description,
        datasheet_file_id: null,
        enabled: values.enabled,
        create_by: scope.username,
        create_time: now,
        update_time: null,
      });
    }
    const result: TBaseImportResult = {
      dryRun,
      total: rows.length,
      valid: fresh.length + existing,
      invalid: errors.rows.size,
      imported: 0,
      existing,
      errors: errors.sorted(),
    };
    if (dryRun || fresh.length === 0) return result;
    await this.unique(() => this.repository.insert(scope.companyId, fresh));
    return { ...result, imported: fresh.length };
  }
}
