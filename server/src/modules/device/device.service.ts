import type { Readable } from 'node:stream';
import {
  DEVICE_LOCATION_SEPARATOR,
  DEVICE_SERIES,
  DEVICE_TAGS_MAX,
  IMPORT_COLUMNS,
  IMPORT_ROWS_MAX,
  SN_PATTERN,
  type TDevice,
  type TDeviceCreate,
  type TDeviceEdit,
  type TDeviceExportQuery,
  type TDeviceFilter,
  type TDeviceImportResult,
  type TDeviceMoveToGroup,
  type TDeviceQuery,
  type TDeviceSeries,
  type TDeviceStatus,
  type TDeviceSummary,
  type TDeviceTagCount,
  type TDeviceTagsChange,
  type TImportRowError,
} from '@blrms/contracts';
import { requireAccess, requireAccessToAll } from '../../platform/auth/access.js';
import type { DataRuleService } from '../../platform/auth/data-rules.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Bus } from '../../platform/bus/bus.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { isUniqueViolation } from '../../platform/db/unique-violation.js';
import type { DeviceTable } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import { serverTimeZone, type SheetCell } from '../../platform/sheet/sheet-cells.js';
import { readSheet, sheetKind, type SheetUpload } from '../../platform/sheet/sheet-reader.js';
import { SHEET_CONTENT_TYPES, sheetStream } from '../../platform/sheet/sheet-writer.js';
import type { DeviceLogEntry, DeviceLogService, DeviceLogSubject } from './device-log.service.js';
import {
  type DeviceFilter,
  type DeviceRepository,
  type DeviceRow,
  type DeviceSort,
} from './device.repository.js';
import { mapHeader, type ImportColumn } from './device-sheet.rules.js';
import { tagsOfCell, type DeviceTagService } from './device-tag.service.js';
import type { GroupService } from './group.service.js';
import { iso, isoOrNull, pageResult, type Page } from '../../platform/http/paging.js';
import { DEVICE_RULES } from './stats-columns.rules.js';
import { expectedRestart } from './expected-restart.rules.js';
import type { TokenForDevices, TokenService } from './token.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const EXPORT_BATCH = 2000;
const PREVIEW_ROWS = 100;
const ERRORS_MAX = 1000;
const TOP_VERSIONS = 10;
const RECENT_LOGS = 10;

/** What makes a device: its company, token, owner and the columns the form or sheet gives. */
export type NewDevice = Pick<
  DeviceTable,
  | 'company_id'
  | 'token_id'
  | 'owner_id'
  | 'sys_org_code'
  | 'create_by'
  | 'create_time'
  | 'sn'
  | 'name'
  | 'series'
  | 'model'
  | 'version'
  | 'group_id'
  | 'remark'
  | 'location'
> &
  Partial<Pick<DeviceTable, 'goods_id' | 'location_id' | 'vendor_id'>>;

/**
 * A new device row, enabled and offline until it connects: the one place that knows a new
 * device's defaults, whether it is added, imported or registered by its first MQTT login.
 */
export function newDeviceRow(device: NewDevice): DeviceTable {
  return {
    id: newId(),
    enabled: 1,
    status: 'offline',
    ip: null,
    last_seen_at: null,
    last_connect_at: null,
    last_disconnect_at: null,
    disconnect_reason: null,
    update_time: null,
    ...device,
  };
}

/** Maximum lengths of the import columns, as the add form's schema has them. */
const MAX_LENGTH: Record<ImportColumn, number> = {
  sn: 64,
  name: 64,
  series: 16,
  model: 64,
  version: 64,
  group: 64,
  remark: 255,
  location: 128,
  goods: 64,
  locationPath: 1000,
  vendor: 100,
  tags: 1000,
};

/** What a device row lacks of the API's device: its tags and its location's path. */
interface DeviceExtras {
  tags: string[];
  locationPath: string | null;
}

/** The goods, location and vendor references of a device form, and the error of each. */
const REFERENCES = [
  { field: 'goodsId', table: 'base_goods', notFound: 'deviceGoodsNotFound' },
  { field: 'locationId', table: 'base_location', notFound: 'deviceLocationNotFound' },
  { field: 'vendorId', table: 'base_vendor', notFound: 'deviceVendorNotFound' },
] as const;

function toDevice(row: DeviceRow, now: number, extras: DeviceExtras): TDevice {
  return {
    id: row.id,
    tagCode: `${row.token_code}:${row.sn}`,
    sn: row.sn,
    name: row.name,
    series: row.series as TDeviceSeries,
    model: row.model,
    version: row.version,
    groupId: row.group_id,
    groupName: row.group_name,
    status: row.status as TDeviceStatus,
    enabled: row.enabled === 1,
    tokenId: row.token_id,
    tokenName: row.token_name,
    ownerId: row.owner_id,
    ownerName: row.owner_name,
    remark: row.remark,
    ip: row.ip,
    location: row.location,
    goodsId: row.goods_id ?? null,
    goodsModel: row.goods_model,
    locationId: row.location_id ?? null,
    locationPath: extras.locationPath,
    vendorId: row.vendor_id ?? null,
    vendorName: row.vendor_name,
    tags: extras.tags,
    lastSeenAt: isoOrNull(row.last_seen_at),
    lastConnectAt: isoOrNull(row.last_connect_at),
    lastDisconnectAt: isoOrNull(row.last_disconnect_at),
    disconnectReason: row.disconnect_reason,
    expectedRestart: expectedRestart(row, now),
    createTime: iso(row.create_time),
    updateTime: isoOrNull(row.update_time),
  };
}

function toFilter(query: TDeviceFilter): DeviceFilter {
  const { createTime_begin, createTime_end, ...rest } = query;
  return {
    ...rest,
    from: createTime_begin ? Date.parse(createTime_begin) : undefined,
    to: createTime_end ? Date.parse(createTime_end) : undefined,
  };
}

/** Where a device action came from, for its log entry. */
export interface ActionOrigin {
  requestUrl: string;
  ip: string;
}

export type ImportFile = SheetUpload;

const instant = (iso: string | null) => (iso === null ? '' : new Date(iso));

const EXPORT_COLUMNS: {
  label: MessageKey;
  value: (d: TDevice, lang: Lang) => SheetCell;
  time?: boolean;
}[] = [
  { label: 'deviceColumnTagCode', value: (d) => d.tagCode },
  { label: 'deviceColumnSn', value: (d) => d.sn },
  { label: 'deviceColumnName', value: (d) => d.name },
  { label: 'deviceColumnSeries', value: (d) => d.series },
  { label: 'deviceColumnModel', value: (d) => d.model ?? '' },
  { label: 'deviceColumnVersion', value: (d) => d.version ?? '' },
  { label: 'deviceColumnGroup', value: (d) => d.groupName ?? '' },
  {
    label: 'deviceColumnStatus',
    value: (d, lang) =>
      message(lang, d.status === 'online' ? 'deviceStatusOnline' : 'deviceStatusOffline'),
  },
  { label: 'deviceColumnToken', value: (d) => d.tokenName },
  { label: 'deviceColumnOwner', value: (d) => d.ownerName },
  { label: 'deviceColumnIp', value: (d) => d.ip ?? '' },
  { label: 'deviceColumnLocation', value: (d) => d.location ?? '' },
  { label: 'deviceColumnLastSeen', value: (d) => instant(d.lastSeenAt), time: true },
  { label: 'deviceColumnCreateTime', value: (d) => instant(d.createTime), time: true },
  { label: 'deviceColumnRemark', value: (d) => d.remark ?? '' },
  // Issue 20's columns come last, so that sheets read by position before keep their meaning.
  { label: 'deviceColumnGoods', value: (d) => d.goodsModel ?? '' },
  { label: 'deviceColumnLocationPath', value: (d) => d.locationPath ?? '' },
  { label: 'deviceColumnVendor', value: (d) => d.vendorName ?? '' },
  { label: 'deviceColumnTags', value: (d) => d.tags.join(',') },
];

export class DeviceService {
  constructor(
    private readonly repository: DeviceRepository,
    private readonly tokens: TokenService,
    private readonly groups: GroupService,
    private readonly logs: DeviceLogService,
    private readonly tags: DeviceTagService,
    private readonly dataRules: DataRuleService,
    private readonly permissions: PermissionService,
    private readonly clock: Clock,
    private readonly bus: Bus,
  ) {}

  private rules(scope: Scope) {
    return this.dataRules.filterFor(scope, DEVICE_RULES);
  }

  async list(scope: Scope, query: TDeviceQuery): Promise<Page<TDevice>> {
    const rules = await this.rules(scope);
    const filter = toFilter(query);
    const { rows, total } = await this.repository.pageWithTotal(
      scope.companyId,
      filter,
      rules,
      query,
      query.pageSize,
      (query.pageNo - 1) * query.pageSize,
    );
    return pageResult(await this.toDevices(scope.companyId, rows), total, query);
  }

  async get(scope: Scope, id: string): Promise<TDevice> {
    const row = await requireAccess(
      this.repository.findById(scope.companyId, id, await this.rules(scope)),
      'deviceNotFound',
    );
    const [device] = await this.toDevices(scope.companyId, [row]);
    return device!;
  }

  /** Rows as the API shows them: with their tags and location paths (two queries a page). */
  private async toDevices(companyId: string, rows: DeviceRow[]): Promise<TDevice[]> {
    const locationIds = [...new Set(rows.flatMap((r) => (r.location_id ? [r.location_id] : [])))];
    const [tags, paths] = await Promise.all([
      this.tags.tagsOf(
        companyId,
        rows.map((r) => r.id),
      ),
      locationIds.length > 0
        ? this.repository.locationPaths(companyId, locationIds)
        : new Map<string, string>(),
    ]);
    const now = this.clock();
    return rows.map((r) =>
      toDevice(r, now, {
        tags: tags.get(r.id) ?? [],
        locationPath: r.location_id ? (paths.get(r.location_id) ?? null) : null,
      }),
    );
  }

  /**
   * 400 naming the field when a goods, location or vendor is not a row of the caller's company:
   * another company's id reads the same as a missing one.
   */
  private async requireReferences(
    scope: Scope,
    input: { goodsId?: string | null; locationId?: string | null; vendorId?: string | null },
  ): Promise<void> {
    for (const { field, table, notFound } of REFERENCES) {
      const id = input[field];
      if (id && !(await this.repository.referenceExists(scope.companyId, table, id))) {
        throw new AppError(notFound, 400);
      }
    }
  }

  /** The company's tags with their device counts, for filters and autocompletion. */
  tagCounts(scope: Scope): Promise<TDeviceTagCount[]> {
    return this.tags.counts(scope);
  }

  /** Adds tags to the selected devices: all or nothing (404 for a device the caller cannot see). */
  async addTags(scope: Scope, input: TDeviceTagsChange, origin: ActionOrigin): Promise<number> {
    const devices = await this.requireVisible(scope, input.ids);
    const changes = await this.tags.add(scope, devices, input.tags);
    await this.logTagChanges(scope, origin, devices, changes, 'added');
    return changes.length;
  }

  /** Takes tags from the selected devices; devices without them are left as they are. */
  async removeTags(scope: Scope, input: TDeviceTagsChange, origin: ActionOrigin): Promise<number> {
    const devices = await this.requireVisible(scope, input.ids);
    const changes = await this.tags.remove(scope, devices, input.tags);
    await this.logTagChanges(scope, origin, devices, changes, 'removed');
    return changes.length;
  }

  private async logTagChanges(
    scope: Scope,
    origin: ActionOrigin,
    devices: { id: string; sn: string; owner_name: string }[],
    changes: { id: string; tags: string[] }[],
    how: 'added' | 'removed',
  ): Promise<void> {
    const byId = new Map(devices.map((d) => [d.id, d]));
    await this.log(
      scope,
      origin,
      'device.tags',
      changes.flatMap((c) => {
        const d = byId.get(c.id);
        return d
          ? [{ id: d.id, sn: d.sn, ownerName: d.owner_name, content: { [how]: c.tags } }]
          : [];
      }),
    );
  }

  /** Whether the caller's data rules narrow the devices the list shows them. */
  async hasDataRules(scope: Scope): Promise<boolean> {
    return (await this.rules(scope)).kind !== 'all';
  }

  /** Of `ids`, the devices the list would show the caller. */
  async visibleIds(scope: Scope, ids: string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    return this.repository.visibleIds(scope.companyId, ids, await this.rules(scope));
  }

  async add(scope: Scope, input: TDeviceCreate, origin: ActionOrigin): Promise<TDevice> {
    const token = await this.tokens.forDevices(scope, input.tokenId);
    if (input.groupId) await this.groups.requireInCompany(scope, input.groupId);
    await this.requireReferences(scope, input);
    if (input.tags) this.tags.requireWithinLimit(input.sn, new Set(input.tags).size);
    if ((await this.repository.existingSns(scope.companyId, token.id, [input.sn])).size > 0) {
      throw new AppError('deviceSnExists', 409);
    }
    const row = this.newRow(scope, token, {
      sn: input.sn,
      name: input.name,
      series: input.series,
      model: input.model || null,
      version: input.version || null,
      group_id: input.groupId ?? null,
      remark: input.remark || null,
      location: input.location || null,
      goods_id: input.goodsId ?? null,
      location_id: input.locationId ?? null,
      vendor_id: input.vendorId ?? null,
    });
    try {
      await this.repository.insert(scope.companyId, [row]);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('deviceSnExists', 409);
      throw error;
    }
    if (input.tags?.length) await this.tags.replace(scope, row, input.tags);
    await this.log(scope, origin, 'device.add', [
      { id: row.id, sn: row.sn, ownerName: token.ownerName, content: { ...input } },
    ]);
    return this.get(scope, row.id);
  }

  async edit(scope: Scope, input: TDeviceEdit, origin: ActionOrigin): Promise<TDevice> {
    const before = await this.get(scope, input.id);
    if (input.groupId) await this.groups.requireInCompany(scope, input.groupId);
    await this.requireReferences(scope, input);
    if (input.tags) this.tags.requireWithinLimit(before.sn, new Set(input.tags).size);
    await this.repository.update(scope.companyId, input.id, {
      name: input.name,
      series: input.series,
      enabled: input.enabled ? 1 : 0,
      ...(input.model !== undefined ? { model: input.model || null } : {}),
      ...(input.version !== undefined ? { version: input.version || null } : {}),
      ...(input.groupId !== undefined ? { group_id: input.groupId } : {}),
      ...(input.remark !== undefined ? { remark: input.remark || null } : {}),
      ...(input.location !== undefined ? { location: input.location || null } : {}),
      ...(input.goodsId !== undefined ? { goods_id: input.goodsId } : {}),
      ...(input.locationId !== undefined ? { location_id: input.locationId } : {}),
      ...(input.vendorId !== undefined ? { vendor_id: input.vendorId } : {}),
      update_time: this.clock(),
    });
    if (input.tags) await this.tags.replace(scope, before, input.tags);
    const after = await this.get(scope, input.id);
    // A disabled device loses its connection at once, on whichever node holds it.
    if (!after.enabled) {
      await this.bus.publish('device.kick', { deviceIds: [after.id], reason: 'device-disabled' });
    }
    const changes = Object.fromEntries(
      (Object.keys(input) as (keyof TDeviceEdit & keyof TDevice)[])
        .filter((k) => k !== 'id' && String(before[k]) !== String(after[k]))
        .map((k) => [k, { from: before[k], to: after[k] }]),
    );
    await this.log(scope, origin, 'device.edit', [
      { id: after.id, sn: after.sn, ownerName: after.ownerName, content: changes },
    ]);
    return after;
  }

  /** All or nothing: an id the caller cannot see fails the whole batch with 404. */
  private async requireVisible(scope: Scope, ids: string[]) {
    const rules = await this.rules(scope);
    return requireAccessToAll(
      ids,
      (unique) => this.repository.visible(scope.companyId, unique, rules),
      'deviceNotFound',
    );
  }

  async delete(scope: Scope, ids: string[], origin: ActionOrigin): Promise<number> {
    const devices = await this.requireVisible(scope, ids);
    const count = await this.repository.delete(scope.companyId, devices, {
      by: scope.username,
      at: this.clock(),
    });
    await this.bus.publish('device.kick', {
      deviceIds: devices.map((d) => d.id),
      reason: 'device-deleted',
    });
    await this.log(
      scope,
      origin,
      'device.delete',
      devices.map((d) => ({ id: d.id, sn: d.sn, ownerName: d.owner_name, content: {} })),
    );
    return count;
  }

  async moveToGroup(scope: Scope, input: TDeviceMoveToGroup, origin: ActionOrigin) {
    if (input.groupId) await this.groups.requireInCompany(scope, input.groupId);
    const devices = await this.requireVisible(scope, input.ids);
    const count = await this.repository.moveToGroup(
      scope.companyId,
      devices.map((d) => d.id),
      input.groupId,
      this.clock(),
    );
    await this.log(
      scope,
      origin,
      'device.move',
      devices.map((d) => ({
        id: d.id,
        sn: d.sn,
        ownerName: d.owner_name,
        content: { groupId: { from: d.group_id, to: input.groupId } },
      })),
    );
    return count;
  }

  /** The devices of the current filter and sort, streamed in batches. */
  exportFile(scope: Scope, query: TDeviceExportQuery, lang: Lang) {
    const { format, column, order, tz, _t, ...filterQuery } = query;
    const filter = toFilter(filterQuery);
    const sort: DeviceSort = { column, order };
    const repository = this.repository;
    const rulesOf = this.rules(scope);
    const toDevices = (companyId: string, rows: DeviceRow[]) => this.toDevices(companyId, rows);
    const batches = (async function* () {
      const rules = await rulesOf;
      for (let offset = 0; ; offset += EXPORT_BATCH) {
        const rows = await repository.page(
          scope.companyId,
          filter,
          rules,
          sort,
          EXPORT_BATCH,
          offset,
        );
        if (rows.length > 0) {
          const devices = await toDevices(scope.companyId, rows);
          yield devices.map((device) => EXPORT_COLUMNS.map((c) => c.value(device, lang)));
        }
        if (rows.length < EXPORT_BATCH) return;
      }
    })();
    const columns = EXPORT_COLUMNS.map((c) => ({ header: message(lang, c.label), time: c.time }));
    const timeZone = tz ?? serverTimeZone();
    const stamp = new Date(this.clock()).toISOString().slice(0, 10).replaceAll('-', '');
    const body: Readable = sheetStream(
      format,
      message(lang, 'deviceExportSheet'),
      columns,
      batches,
      timeZone,
    );
    return {
      filename: `devices-${stamp}.${format}`,
      contentType: SHEET_CONTENT_TYPES[format],
      body,
    };
  }

  /**
   * Reads a sheet, checks every row, and (unless a dry run) imports the good rows in one
   * transaction; bad rows are reported by row number and column, never half-imported.
   */
  async import(
    scope: Scope,
    file: ImportFile,
    options: { tokenId: string; dryRun: boolean },
    origin: ActionOrigin,
    lang: Lang,
  ): Promise<TDeviceImportResult> {
    const token = await this.tokens.forDevices(scope, options.tokenId);
    const kind = sheetKind(file);
    if (!kind) throw new AppError('importFileType', 400);
    // Streamed: the read stops at the row limit, before the rows cost any memory.
    const table = await readSheet(kind, file.content, {
      maxRows: IMPORT_ROWS_MAX,
      tooManyRows: () => new AppError('importTooManyRows', 400, { max: IMPORT_ROWS_MAX }),
    });
    const columns = mapHeader(table.header);
    const required: ImportColumn[] = ['sn', 'name', 'series'];
    if (!required.every((c) => columns.has(c))) {
      throw new AppError('importNoHeader', 400, { columns: required.join(', ') });
    }
    const rows = table.rows
      .map(({ row, cells }) => ({
        row,
        values: Object.fromEntries(
          IMPORT_COLUMNS.map((c) => {
            const at = columns.get(c);
            return [c, at === undefined ? '' : (cells[at] ?? '').trim()];
          }),
        ) as Record<ImportColumn, string>,
      }))
      .filter((r) => IMPORT_COLUMNS.some((c) => r.values[c] !== ''));

    const groupIds = await this.groups.idsByName(scope);
    const references = await this.importReferences(scope.companyId, columns);
    const tagRows: { device_id: string; tag: string }[] = [];
    const existing = await this.repository.existingSns(
      scope.companyId,
      token.id,
      rows.map((r) => r.values.sn).filter((sn) => SN_PATTERN.test(sn)),
    );
    const errors: TImportRowError[] = [];
    const firstRowOfSn = new Map<string, number>();
    const valid: DeviceTable[] = [];
    const error = (row: number, field: string, key: MessageKey, params = {}) =>
      errors.push({ row, field, message: message(lang, key, params) });

    for (const { row, values } of rows) {
      const before = errors.length;
      for (const c of IMPORT_COLUMNS) {
        if (values[c].length > MAX_LENGTH[c]) {
          error(row, c, 'importRowTooLong', { max: MAX_LENGTH[c] });
        }
      }
      for (const c of required) if (values[c] === '') error(row, c, 'importRowRequired');
      const { sn } = values;
      if (sn !== '' && !SN_PATTERN.test(sn)) error(row, 'sn', 'importRowSnInvalid');
      else if (firstRowOfSn.has(sn)) {
        error(row, 'sn', 'importRowSnDuplicate', { row: firstRowOfSn.get(sn) ?? row });
      } else if (existing.has(sn)) error(row, 'sn', 'importRowSnExists');
      if (sn !== '' && !firstRowOfSn.has(sn)) firstRowOfSn.set(sn, row);
      const series = DEVICE_SERIES.find((s) => s.toLowerCase() === values.series.toLowerCase());
      if (values.series !== '' && !series) {
        error(row, 'series', 'importRowSeriesInvalid', { values: DEVICE_SERIES.join(', ') });
      }
      const groupId = values.group === '' ? null : groupIds.get(values.group);
      if (groupId === undefined)
        error(row, 'group', 'importRowGroupUnknown', { name: values.group });
      const refs = references(values);
      for (const e of refs.errors) error(row, e.field, e.key, e.params);
      if (errors.length > before || !series || groupId === undefined) continue;
      const device = this.newRow(scope, token, {
        sn,
        name: values.name,
        series,
        model: values.model || null,
        version: values.version || null,
        group_id: groupId,
        remark: values.remark || null,
        location: values.location || null,
        goods_id: refs.goodsId,
        location_id: refs.locationId,
        vendor_id: refs.vendorId,
      });
      valid.push(device);
      for (const tag of refs.tags) tagRows.push({ device_id: device.id, tag });
    }

    const invalidRows = new Set(errors.map((e) => e.row)).size;
    const result: TDeviceImportResult = {
      dryRun: options.dryRun,
      total: rows.length,
      valid: valid.length,
      invalid: invalidRows,
      imported: 0,
      preview: rows.slice(0, PREVIEW_ROWS).map(({ row, values }) => ({ row, ...values })),
      errors: errors.slice(0, ERRORS_MAX),
    };
    if (options.dryRun || valid.length === 0) return result;

    try {
      await this.repository.insert(scope.companyId, valid);
    } catch (e) {
      // Another request registered one of the SNs since the check: nothing was written.
      if (isUniqueViolation(e)) throw new AppError('deviceSnExists', 409);
      throw e;
    }
    await this.tags.addImported(scope.companyId, tagRows);
    await this.log(
      scope,
      origin,
      'device.import',
      valid.map((d) => ({
        id: d.id,
        sn: d.sn,
        ownerName: token.ownerName,
        content: {
          file: file.filename,
          name: d.name,
          series: d.series,
          groupId: d.group_id,
          goodsId: d.goods_id,
          locationId: d.location_id,
          vendorId: d.vendor_id,
          tags: tagRows.filter((t) => t.device_id === d.id).map((t) => t.tag),
        },
      })),
    );
    return { ...result, imported: valid.length };
  }

  /**
   * Reads the goods, locations and vendors of the company once (only for the columns the sheet
   * has) and returns what resolves a row's names to ids and its tags cell to tags.
   */
  private async importReferences(companyId: string, columns: Map<ImportColumn, number>) {
    const [goods, locations, vendors] = await Promise.all([
      columns.has('goods') ? this.repository.goodsByModel(companyId) : new Map<string, string[]>(),
      columns.has('locationPath')
        ? this.repository.locationsByPath(companyId)
        : new Map<string, string[]>(),
      columns.has('vendor') ? this.repository.vendorsByName(companyId) : new Map<string, string>(),
    ]);
    return (values: Record<ImportColumn, string>) => {
      const errors: { field: ImportColumn; key: MessageKey; params: Record<string, unknown> }[] =
        [];
      const one = (
        field: ImportColumn,
        name: string,
        ids: string[] | undefined,
        unknown: MessageKey,
        ambiguous: MessageKey,
      ): string | null => {
        if (name === '') return null;
        if (!ids || ids.length === 0) errors.push({ field, key: unknown, params: { name } });
        else if (ids.length > 1) errors.push({ field, key: ambiguous, params: { name } });
        return ids?.length === 1 ? ids[0]! : null;
      };
      const path = values.locationPath
        .split('/')
        .map((n) => n.trim())
        .filter(Boolean)
        .join(DEVICE_LOCATION_SEPARATOR);
      const vendor = vendors.get(values.vendor);
      const resolved = {
        goodsId: one(
          'goods',
          values.goods,
          goods.get(values.goods),
          'importRowGoodsUnknown',
          'importRowGoodsAmbiguous',
        ),
        locationId: one(
          'locationPath',
          path,
          locations.get(path),
          'importRowLocationUnknown',
          'importRowLocationAmbiguous',
        ),
        vendorId: one(
          'vendor',
          values.vendor,
          vendor ? [vendor] : undefined,
          'importRowVendorUnknown',
          'importRowVendorUnknown',
        ),
      };
      const { tags, invalid } = tagsOfCell(values.tags);
      if (invalid.length > 0) {
        errors.push({ field: 'tags', key: 'importRowTagInvalid', params: { tag: invalid[0] } });
      }
      if (tags.length > DEVICE_TAGS_MAX) {
        errors.push({
          field: 'tags',
          key: 'importRowTagsTooMany',
          params: { max: DEVICE_TAGS_MAX },
        });
      }
      return { ...resolved, tags, errors };
    };
  }

  async summary(scope: Scope, lang: Lang): Promise<TDeviceSummary> {
    const rules = await this.rules(scope);
    const [breakdown, offlineSeen24h, canReadLogs] = await Promise.all([
      this.repository.breakdown(scope.companyId, rules),
      this.repository.offlineSeenSince(scope.companyId, this.clock() - DAY_MS, rules),
      this.permissions.hasIn(scope, 'devicelog:list'),
    ]);
    const sum = (match: (r: (typeof breakdown)[number]) => boolean) =>
      breakdown.filter(match).reduce((n, r) => n + r.count, 0);
    const versions = new Map<string | null, number>();
    for (const r of breakdown) versions.set(r.version, (versions.get(r.version) ?? 0) + r.count);
    const online = sum((r) => r.status === 'online');
    return {
      total: sum(() => true),
      online,
      offline: sum((r) => r.status !== 'online'),
      // A connected device is seen now, whatever its last message: counting only the offline
      // ones by time keeps this an index range over the few that went away recently.
      seen24h: online + offlineSeen24h,
      bySeries: DEVICE_SERIES.map((series) => ({
        series,
        total: sum((r) => r.series === series),
        online: sum((r) => r.series === series && r.status === 'online'),
      })),
      byVersion: [...versions]
        .map(([version, total]) => ({ version, total }))
        .sort((a, b) => b.total - a.total || String(a.version).localeCompare(String(b.version)))
        .slice(0, TOP_VERSIONS),
      // The log is only shown to those who may read it.
      recentLogs: canReadLogs ? await this.logs.latest(scope, RECENT_LOGS, lang) : [],
    };
  }

  /** A new device of the token: owned by the token's owner, in the owner's current department. */
  private newRow(
    scope: Scope,
    token: TokenForDevices,
    values: Omit<
      NewDevice,
      'company_id' | 'token_id' | 'owner_id' | 'sys_org_code' | 'create_by' | 'create_time'
    >,
  ): DeviceTable {
    return newDeviceRow({
      company_id: scope.companyId,
      token_id: token.id,
      owner_id: token.ownerId,
      sys_org_code: token.ownerOrgCode,
      create_by: scope.username,
      create_time: this.clock(),
      ...values,
    });
  }

  private async log(
    scope: Scope,
    origin: ActionOrigin,
    subject: DeviceLogSubject,
    devices: { id: string; sn: string; ownerName: string; content: unknown }[],
  ): Promise<void> {
    const entries: DeviceLogEntry[] = devices.map((d) => ({
      companyId: scope.companyId,
      deviceId: d.id,
      sn: d.sn,
      requestUrl: origin.requestUrl,
      sourceUser: scope.username,
      targetUser: d.ownerName,
      subject,
      content: d.content,
      sourceIp: origin.ip,
      state: 'succeeded',
    }));
    await this.logs.writeMany(entries);
  }
}
