import {
  VENDOR_KINDS,
  VENDOR_SHEET_COLUMNS,
  ZVendorInput,
  type TBaseImportResult,
  type TVendor,
  type TVendorEdit,
  type TVendorExportQuery,
  type TVendorInput,
  type TVendorKind,
  type TVendorListQuery,
  type TVendorPage,
  type TVendorSheetColumn,
  type TVendorValues,
} from '@blrms/contracts';
import { requireAccess, requireAccessToAll } from '../../platform/auth/access.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { isUniqueViolation } from '../../platform/db/unique-violation.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import { iso, isoOrNull, pageResult } from '../../platform/http/paging.js';
import type { SheetUpload } from '../../platform/sheet/sheet-reader.js';
import { exportFile, importRows } from './base-data-export.service.js';
import { RowErrors, schemaProblems, type SheetSpec } from './base-data-sheet.rules.js';
import type { NewVendor, VendorRepository, VendorRow } from './vendor.repository.js';

export const VENDOR_SHEET: SheetSpec<TVendorSheetColumn> = {
  columns: VENDOR_SHEET_COLUMNS,
  labels: {
    name: 'baseColumnName',
    kind: 'baseColumnKind',
    contactName: 'baseColumnContactName',
    contactPhone: 'baseColumnContactPhone',
    contactEmail: 'baseColumnContactEmail',
    contractNo: 'baseColumnContractNo',
    contractStart: 'baseColumnContractStart',
    contractEnd: 'baseColumnContractEnd',
    warrantyEnd: 'baseColumnWarrantyEnd',
    remark: 'baseColumnRemark',
  },
  required: ['name', 'kind'],
};

const KIND_LABELS: Record<TVendorKind, MessageKey> = {
  supplier: 'baseVendorSupplier',
  installer: 'baseVendorInstaller',
  carrier: 'baseVendorCarrier',
  maintainer: 'baseVendorMaintainer',
};

/** A kind written in a sheet: its key or its label in either language. */
function kindOfCell(text: string): TVendorKind | undefined {
  const t = text.trim().toLowerCase();
  return VENDOR_KINDS.find(
    (k) =>
      k === t ||
      message('zh-CN', KIND_LABELS[k]) === text.trim() ||
      message('en-US', KIND_LABELS[k]).toLowerCase() === t,
  );
}

function toVendor(row: VendorRow): TVendor {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind as TVendorKind,
    contactName: row.contact_name,
    contactPhone: row.contact_phone,
    contactEmail: row.contact_email,
    contractNo: row.contract_no,
    contractStart: row.contract_start,
    contractEnd: row.contract_end,
    warrantyEnd: row.warranty_end,
    remark: row.remark,
    createTime: iso(row.create_time),
    updateTime: isoOrNull(row.update_time),
  };
}

function fields(values: TVendorValues) {
  return {
    name: values.name,
    kind: values.kind,
    contact_name: values.contactName,
    contact_phone: values.contactPhone,
    contact_email: values.contactEmail,
    contract_no: values.contractNo,
    contract_start: values.contractStart,
    contract_end: values.contractEnd,
    warranty_end: values.warrantyEnd,
    remark: values.remark,
  };
}

/** Vendors (基础数据 → 供应商): who supplies, installs, carries or maintains devices. */
export class VendorService {
  constructor(
    private readonly repository: VendorRepository,
    private readonly clock: Clock,
  ) {}

  async list(scope: Scope, query: TVendorListQuery): Promise<TVendorPage> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    return pageResult(records.map(toVendor), total, query);
  }

  async get(scope: Scope, id: string): Promise<TVendor> {
    return toVendor(await this.require(scope, id));
  }

  private require(scope: Scope, id: string): Promise<VendorRow> {
    return requireAccess(this.repository.findIn(scope.companyId, id), 'baseVendorNotFound');
  }

  async add(scope: Scope, input: TVendorInput): Promise<TVendor> {
    const values = ZVendorInput.parse(input);
    const id = newId();
    await this.unique(() =>
      this.repository.insert(scope.companyId, [
        {
          id,
          ...fields(values),
          create_by: scope.username,
          create_time: this.clock(),
          update_time: null,
        },
      ]),
    );
    return this.get(scope, id);
  }

  async edit(scope: Scope, input: TVendorEdit): Promise<TVendor> {
    const { id, ...rest } = input;
    const values = ZVendorInput.parse(rest);
    await this.require(scope, id);
    await this.unique(() =>
      this.repository.update(scope.companyId, id, { ...fields(values), update_time: this.clock() }),
    );
    return this.get(scope, id);
  }

  /** All or none: 404 when one id is not the company's, 409 while a device references one. */
  async delete(scope: Scope, ids: string[]): Promise<number> {
    const found = await requireAccessToAll(
      ids,
      (unique) => this.repository.existingIds(scope.companyId, unique),
      'baseVendorNotFound',
    );
    const devices = await this.repository.deleteUnreferenced(scope.companyId, found);
    if (devices > 0) throw new AppError('baseVendorInUse', 409, { count: devices });
    return found.length;
  }

  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('baseVendorNameExists', 400);
      throw error;
    }
  }

  exportFile(scope: Scope, query: TVendorExportQuery, lang: Lang) {
    const { format, tz, _t, ...filter } = query;
    const label = (key: MessageKey) => message(lang, key);
    return exportFile({
      name: 'vendors',
      sheetName: label('baseSheetVendors'),
      format,
      timeZone: tz,
      now: this.clock(),
      columns: [
        ...VENDOR_SHEET_COLUMNS.map((c) => ({ header: label(VENDOR_SHEET.labels[c]) })),
        { header: label('baseColumnCreateTime'), time: true },
      ],
      read: (limit, offset) =>
        this.repository.exportBatch(scope.companyId, { ...filter, format, _t }, limit, offset),
      cells: (row) => [
        row.name,
        label(KIND_LABELS[row.kind as TVendorKind]),
        row.contact_name ?? '',
        row.contact_phone ?? '',
        row.contact_email ?? '',
        row.contract_no ?? '',
        row.contract_start ?? '',
        row.contract_end ?? '',
        row.warranty_end ?? '',
        row.remark ?? '',
        new Date(row.create_time),
      ],
    });
  }

  /** Checks every row; writes the good new ones. A vendor already there (by name) is existing. */
  async importSheet(
    scope: Scope,
    file: SheetUpload,
    dryRun: boolean,
    lang: Lang,
  ): Promise<TBaseImportResult> {
    const rows = await importRows(VENDOR_SHEET, file, lang);
    const have = await this.repository.names(scope.companyId);
    const errors = new RowErrors(lang);
    const firstRow = new Map<string, number>();
    const fresh: NewVendor[] = [];
    let existing = 0;
    const now = this.clock();
    for (const { row, v } of rows) {
      const kind = kindOfCell(v.kind);
      if (v.kind !== '' && !kind) {
        errors.add(row, 'kind', 'baseRowBadValue', {
          values: VENDOR_KINDS.map((k) => `${k} (${message(lang, KIND_LABELS[k])})`).join(', '),
        });
      }
      const parsed = ZVendorInput.safeParse({ ...v, kind: kind ?? v.kind });
      if (!parsed.success) {
        errors.push(
          ...schemaProblems(parsed.error, row, lang).filter((e) => kind || e.field !== 'kind'),
        );
      }
      if (errors.has(row) || !parsed.success) continue;
      const values = parsed.data;
      const first = firstRow.get(values.name);
      if (first !== undefined) {
        errors.add(row, 'name', 'baseRowDuplicate', { row: first });
        continue;
      }
      firstRow.set(values.name, row);
      if (have.has(values.name)) {
        existing += 1;
        continue;
      }
      fresh.push({
        id: newId(),
        ...fields(values),
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
