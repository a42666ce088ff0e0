import {
  LOCATION_DEPTH_MAX,
  LOCATION_KINDS,
  LOCATION_SHEET_COLUMNS,
  LOCATIONS_MAX,
  ZLocationInput,
  type TBaseImportResult,
  type TLocation,
  type TLocationEdit,
  type TLocationExportQuery,
  type TLocationInput,
  type TLocationKind,
  type TLocationListQuery,
  type TLocationNode,
  type TLocationPage,
  type TLocationSheetColumn,
  type TLocationTree,
  type TLocationValues,
} from '@blrms/contracts';
import { requireAccess, requireAccessToAll } from '../../platform/auth/access.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message, type MessageKey } from '../../platform/http/messages.js';
import { iso, isoOrNull, pageResult } from '../../platform/http/paging.js';
import type { SheetUpload } from '../../platform/sheet/sheet-reader.js';
import { exportFile, importRows } from './base-data-export.service.js';
import { RowErrors, numberCell, schemaProblems, type SheetSpec } from './base-data-sheet.rules.js';
import type {
  LocationNodeRow,
  LocationRepository,
  LocationRow,
  NewLocation,
} from './location.repository.js';
import {
  LocationTree,
  canonicalPath,
  type Placement,
  type TreeNode,
} from './location-tree.rules.js';

export const LOCATION_SHEET: SheetSpec<TLocationSheetColumn> = {
  columns: LOCATION_SHEET_COLUMNS,
  labels: {
    parent: 'baseColumnParent',
    kind: 'baseColumnKind',
    name: 'baseColumnName',
    address: 'baseColumnAddress',
    latitude: 'baseColumnLatitude',
    longitude: 'baseColumnLongitude',
    contactName: 'baseColumnContactName',
    contactPhone: 'baseColumnContactPhone',
    sortNo: 'baseColumnSortNo',
  },
  required: ['kind', 'name'],
};

const KIND_LABELS: Record<TLocationKind, MessageKey> = {
  region: 'baseKindRegion',
  site: 'baseKindSite',
  cabinet: 'baseKindCabinet',
};

type Node = TreeNode & { row: LocationNodeRow | null };

function nodeOf(row: LocationNodeRow): Node {
  return {
    id: row.id,
    parentId: row.parent_id,
    kind: row.kind as TLocationKind,
    name: row.name,
    row,
  };
}

/** Kinds as message params name them: keys, 'none' for no parent, comma-separated. */
const kindKeys = (kinds: readonly (TLocationKind | null)[]) =>
  kinds.map((k) => k ?? 'none').join(',');

/** A kind written in a sheet: its key or its label in either language. */
function kindOfCell(text: string): TLocationKind | undefined {
  const t = text.trim().toLowerCase();
  return LOCATION_KINDS.find(
    (k) =>
      k === t ||
      message('zh-CN', KIND_LABELS[k]) === text.trim() ||
      message('en-US', KIND_LABELS[k]).toLowerCase() === t,
  );
}

/** Locations (基础数据 → 位置): one tree per company, region → site → cabinet. */
export class LocationService {
  constructor(
    private readonly repository: LocationRepository,
    private readonly clock: Clock,
  ) {}

  private async tree(companyId: string): Promise<LocationTree<Node>> {
    return new LocationTree((await this.repository.nodes(companyId)).map(nodeOf));
  }

  private toLocation(row: LocationRow, tree: LocationTree<Node>): TLocation {
    return {
      id: row.id,
      parentId: row.parent_id,
      kind: row.kind as TLocationKind,
      name: row.name,
      path: tree.path(row.id),
      address: row.address,
      latitude: row.latitude === null ? null : Number(row.latitude),
      longitude: row.longitude === null ? null : Number(row.longitude),
      contactName: row.contact_name,
      contactPhone: row.contact_phone,
      sortNo: row.sort_no ?? 0,
      hasChildren: tree.childrenOf(row.id).length > 0,
      createTime: iso(row.create_time),
      updateTime: isoOrNull(row.update_time),
    };
  }

  async list(scope: Scope, query: TLocationListQuery): Promise<TLocationPage> {
    const [{ records, total }, tree] = await Promise.all([
      this.repository.page(scope.companyId, query),
      this.tree(scope.companyId),
    ]);
    return pageResult(
      records.map((r) => this.toLocation(r, tree)),
      total,
      query,
    );
  }

  /** The company's whole tree, parents first: for tree selects and the map. */
  async nodes(scope: Scope): Promise<TLocationTree> {
    const rows = await this.repository.nodes(scope.companyId);
    const truncated = rows.length > LOCATIONS_MAX;
    const tree = new LocationTree(rows.slice(0, LOCATIONS_MAX).map(nodeOf));
    const nodes: TLocationNode[] = tree.ordered().map((n) => ({
      id: n.id,
      parentId: n.parentId,
      kind: n.kind,
      name: n.name,
      path: tree.path(n.id),
      latitude: n.row?.latitude == null ? null : Number(n.row.latitude),
      longitude: n.row?.longitude == null ? null : Number(n.row.longitude),
      sortNo: n.row?.sort_no ?? 0,
    }));
    return { nodes, truncated };
  }

  async get(scope: Scope, id: string): Promise<TLocation> {
    const row = await this.require(scope, id);
    return this.toLocation(row, await this.tree(scope.companyId));
  }

  private require(scope: Scope, id: string): Promise<LocationRow> {
    return requireAccess(this.repository.findIn(scope.companyId, id), 'baseLocationNotFound');
  }

  /** 400 naming the field when the location cannot sit there. */
  private place(
    tree: LocationTree<Node>,
    location: { id?: string; kind: TLocationKind; name: string },
    parentId: string | null,
  ): void {
    if (parentId !== null && !tree.byId.has(parentId)) {
      throw new AppError('baseLocationParentNotFound', 400);
    }
    const placement = tree.placement(location, parentId);
    if (!placement.ok) throw this.placementError(placement, location.kind);
  }

  private placementError(placement: Exclude<Placement, { ok: true }>, kind: TLocationKind) {
    switch (placement.problem) {
      case 'parentKind':
        return new AppError('baseLocationParentKind', 400, {
          kind,
          allowed: kindKeys(placement.allowed),
        });
      case 'cycle':
        return new AppError('baseLocationCycle', 400);
      case 'tooDeep':
        return new AppError('baseLocationTooDeep', 400, { max: LOCATION_DEPTH_MAX });
      case 'kindChildren':
        return new AppError('baseLocationKindChildren', 400, { child: placement.child, kind });
      case 'nameTaken':
        return new AppError('baseLocationNameExists', 400);
    }
  }

  private fields(values: TLocationValues) {
    return {
      parent_id: values.parentId,
      kind: values.kind,
      name: values.name,
      address: values.address,
      latitude: values.latitude,
      longitude: values.longitude,
      contact_name: values.contactName,
      contact_phone: values.contactPhone,
      sort_no: values.sortNo,
    };
  }

  async add(scope: Scope, input: TLocationInput): Promise<TLocation> {
    const values = ZLocationInput.parse(input);
    const tree = await this.tree(scope.companyId);
    if (tree.byId.size >= LOCATIONS_MAX) {
      throw new AppError('baseLocationsTooMany', 400, { max: LOCATIONS_MAX });
    }
    this.place(tree, values, values.parentId);
    const id = newId();
    await this.repository.insert(scope.companyId, [
      {
        id,
        ...this.fields(values),
        create_by: scope.username,
        create_time: this.clock(),
        update_time: null,
      },
    ]);
    return this.get(scope, id);
  }

  async edit(scope: Scope, input: TLocationEdit): Promise<TLocation> {
    const { id, ...rest } = input;
    const values = ZLocationInput.parse(rest);
    await this.require(scope, id);
    this.place(await this.tree(scope.companyId), { ...values, id }, values.parentId);
    await this.repository.update(scope.companyId, id, {
      ...this.fields(values),
      update_time: this.clock(),
    });
    return this.get(scope, id);
  }

  /**
   * All or none: 404 when one id is not the company's; 409 while a device is at one of them or
   * one has a child that is not deleted with it.
   */
  async delete(scope: Scope, ids: string[]): Promise<number> {
    const found = await requireAccessToAll(
      ids,
      (unique) => this.repository.existingIds(scope.companyId, unique),
      'baseLocationNotFound',
    );
    const { devices, children } = await this.repository.deleteIfFree(scope.companyId, found);
    if (devices > 0) throw new AppError('baseLocationInUse', 409, { count: devices });
    if (children > 0) throw new AppError('baseLocationHasChildren', 409, { count: children });
    return found.length;
  }

  exportFile(scope: Scope, query: TLocationExportQuery, lang: Lang) {
    const { format, tz, _t, ...filter } = query;
    const label = (key: MessageKey) => message(lang, key);
    const tree = this.tree(scope.companyId);
    return exportFile({
      name: 'locations',
      sheetName: label('baseSheetLocations'),
      format,
      timeZone: tz,
      now: this.clock(),
      columns: [
        ...LOCATION_SHEET_COLUMNS.map((c) => ({ header: label(LOCATION_SHEET.labels[c]) })),
        { header: label('baseColumnCreateTime'), time: true },
      ],
      read: async (limit, offset) => {
        const t = await tree;
        const rows = await this.repository.exportBatch(
          scope.companyId,
          { ...filter, format, _t },
          limit,
          offset,
        );
        return rows.map((row) => ({ row, parent: row.parent_id ? t.path(row.parent_id) : '' }));
      },
      cells: ({ row, parent }) => [
        parent,
        label(KIND_LABELS[row.kind as TLocationKind]),
        row.name,
        row.address ?? '',
        row.latitude === null ? '' : String(row.latitude),
        row.longitude === null ? '' : String(row.longitude),
        row.contact_name ?? '',
        row.contact_phone ?? '',
        String(row.sort_no ?? 0),
        new Date(row.create_time),
      ],
    });
  }

  /**
   * Checks every row in order; a row may name as parent a location of the company or one of an
   * earlier row, by path ("华东/上海站") or, when that name is unique, by name. Locations already
   * there (same parent and name) are counted as existing; the good new rows are written.
   */
  async importSheet(
    scope: Scope,
    file: SheetUpload,
    dryRun: boolean,
    lang: Lang,
  ): Promise<TBaseImportResult> {
    const rows = await importRows(LOCATION_SHEET, file, lang);
    const tree = await this.tree(scope.companyId);
    const byPath = new Map<string, string[]>();
    const byName = new Map<string, string[]>();
    const index = (node: Node) => {
      const path = tree.path(node.id);
      byPath.set(path, [...(byPath.get(path) ?? []), node.id]);
      byName.set(node.name, [...(byName.get(node.name) ?? []), node.id]);
    };
    for (const node of tree.byId.values()) index(node);

    const errors = new RowErrors(lang);
    const rowOfNew = new Map<string, number>();
    const fresh: NewLocation[] = [];
    let existing = 0;
    const now = this.clock();
    for (const { row, v } of rows) {
      const kind = kindOfCell(v.kind);
      if (v.kind !== '' && !kind) {
        errors.add(row, 'kind', 'baseRowBadValue', {
          values: LOCATION_KINDS.map((k) => `${k} (${message(lang, KIND_LABELS[k])})`).join(', '),
        });
      }
      const numbers = {
        latitude: numberCell(v.latitude),
        longitude: numberCell(v.longitude),
        sortNo: numberCell(v.sortNo),
      };
      for (const [field, n] of Object.entries(numbers)) {
        if (Number.isNaN(n)) errors.add(row, field, 'baseRowNotNumber');
      }
      const parsed = ZLocationInput.safeParse({
        parentId: null,
        kind: kind ?? 'region',
        name: v.name,
        address: v.address,
        latitude: Number.isNaN(numbers.latitude) ? null : numbers.latitude,
        longitude: Number.isNaN(numbers.longitude) ? null : numbers.longitude,
        contactName: v.contactName,
        contactPhone: v.contactPhone,
        sortNo: numbers.sortNo === null || Number.isNaN(numbers.sortNo) ? 0 : numbers.sortNo,
      });
      if (!parsed.success) errors.push(...schemaProblems(parsed.error, row, lang));

      let parentId: string | null = null;
      const parentText = canonicalPath(v.parent);
      if (parentText !== '') {
        const named =
          byPath.get(parentText) ??
          (parentText.includes('/') ? [] : (byName.get(parentText) ?? []));
        if (named.length === 0)
          errors.add(row, 'parent', 'baseRowParentUnknown', { name: parentText });
        else if (named.length > 1)
          errors.add(row, 'parent', 'baseRowParentAmbiguous', { name: parentText });
        else parentId = named[0]!;
      }
      if (errors.has(row) || !parsed.success || !kind) continue;
      const values = { ...parsed.data, parentId };
      const twin = tree.childrenOf(parentId).find((s) => s.name === values.name);
      if (twin) {
        const first = rowOfNew.get(twin.id);
        if (first !== undefined) errors.add(row, 'name', 'baseRowDuplicate', { row: first });
        else existing += 1;
        continue;
      }
      const placement = tree.placement(values, parentId);
      if (!placement.ok) {
        if (placement.problem === 'parentKind') {
          errors.add(row, 'parent', 'baseRowParentKind', {
            kind,
            allowed: kindKeys(placement.allowed),
          });
        } else if (placement.problem === 'tooDeep') {
          errors.add(row, 'parent', 'baseLocationTooDeep', { max: LOCATION_DEPTH_MAX });
        }
        continue;
      }
      if (tree.byId.size >= LOCATIONS_MAX) {
        errors.add(row, 'row', 'baseLocationsTooMany', { max: LOCATIONS_MAX });
        continue;
      }
      const id = newId();
      const node: Node = { id, parentId, kind, name: values.name, row: null };
      tree.add(node);
      index(node);
      rowOfNew.set(id, row);
      fresh.push({
        id,
        ...this.fields(values),
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
    await this.repository.insert(scope.companyId, fresh);
    return { ...result, imported: fresh.length };
  }
}
