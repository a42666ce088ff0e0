import { z } from 'zod';
import { ZId, ZPageQuery, ZTimeZone, ZTimestamp, pageOf } from './common.js';
import { EXPORT_FORMATS, ZDeviceSeries } from './device.js';

/**
 * Base data (基础数据, issue 20): a company's goods (物料: what a device is), locations (位置: a
 * tree region → site → cabinet) and vendors (供应商). A device points at one of each
 * (`goodsId`, `locationId`, `vendorId` of the device contract); a row a device points at cannot
 * be deleted.
 */

/** Printable text without line breaks or control characters; blanks are trimmed. */
const ZLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

/** An optional text field: blank (after trimming) is stored as null. */
const ZOptionalLine = (max: number) =>
  ZLine(max)
    .nullish()
    .transform((v) => (v ? v : null));

/** A phone number as people write it: digits, spaces, + - ( ) and an extension. */
export const ZContactPhone = z
  .string()
  .trim()
  .max(32)
  .regex(/^[0-9+\-() #*]*$/, 'must be a phone number')
  .nullish()
  .transform((v) => (v ? v : null));

/** A calendar date, YYYY-MM-DD, that exists (no 2026-02-30). */
export const ZDateOnly = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date such as 2026-01-31')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
  }, 'must be a date such as 2026-01-31');

const ZOptionalDate = z
  .union([ZDateOnly, z.literal('')])
  .nullish()
  .transform((v) => (v ? v : null));

/** Imports: the file's size and its data rows; good rows are kept, bad ones reported. */
export const BASE_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
export const BASE_IMPORT_ROWS_MAX = 5000;
export const ZBaseImportQuery = z
  .object({
    dryRun: z.enum(['true', 'false']).default('true').describe('true: validate only (preview)'),
  })
  .strict();
export type TBaseImportQuery = z.infer<typeof ZBaseImportQuery>;

export const ZBaseImportRowError = z.object({
  row: z.number().int().describe('Row number in the sheet, header is row 1'),
  field: z.string().describe('Column key of the sheet, or "row"'),
  message: z.string().describe('The rule it breaks, in the request language'),
});
export type TBaseImportRowError = z.infer<typeof ZBaseImportRowError>;

/**
 * The import keeps its good rows: every row is checked, the good ones are written (not in a
 * preview) and the bad ones reported by row and column. A row equal to an existing one (same
 * unique key) is counted in `existing` and not written again, so a fixed file can be imported
 * again safely.
 */
export const ZBaseImportResult = z.object({
  dryRun: z.boolean(),
  total: z.number().int().describe('Data rows in the file'),
  valid: z.number().int().describe('Rows that pass every check (new or existing)'),
  invalid: z.number().int(),
  imported: z.number().int().describe('Rows written (0 in a preview)'),
  existing: z.number().int().describe('Valid rows already there, left as they are'),
  errors: z.array(ZBaseImportRowError).describe('At most 1000, in row order'),
});
export type TBaseImportResult = z.infer<typeof ZBaseImportResult>;

const ZExportBase = z.object({
  format: z.enum(EXPORT_FORMATS).default('xlsx'),
  tz: ZTimeZone.optional(),
  _t: z.string().optional(),
});

/* Goods (物料) ---------------------------------------------------------------------------------- */

export const ZEnabledFlag = z.union([z.literal(0), z.literal(1)]).describe('1 enabled, 0 disabled');

export const ZGoodsInput = z
  .object({
    series: ZDeviceSeries,
    model: ZLine(64).min(1),
    hwRevision: ZLine(32).default('').describe('Hardware revision; "" when the model has one'),
    description: ZOptionalLine(500),
    datasheetFileId: ZId.nullish()
      .transform((v) => v ?? null)
      .describe('A file of the file library (PDF or image); null: none'),
    enabled: ZEnabledFlag.default(1),
  })
  .strict();
export type TGoodsInput = z.input<typeof ZGoodsInput>;
export type TGoodsValues = z.output<typeof ZGoodsInput>;

export const ZGoodsEdit = ZGoodsInput.extend({ id: ZId }).strict();
export type TGoodsEdit = z.input<typeof ZGoodsEdit>;

export const ZGoods = z.object({
  id: ZId,
  series: ZDeviceSeries,
  model: z.string(),
  hwRevision: z.string(),
  description: z.string().nullable(),
  datasheetFileId: ZId.nullable(),
  datasheetFileName: z.string().nullable().describe('Name of the datasheet file, null when none'),
  enabled: ZEnabledFlag,
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TGoods = z.infer<typeof ZGoods>;

export const GOODS_SORT_COLUMNS = ['model', 'series', 'createTime'] as const;
const ZGoodsFilter = z.object({
  model: z.string().max(64).optional().describe('Part of the model or hardware revision'),
  series: ZDeviceSeries.optional(),
  enabled: z.coerce.number().pipe(ZEnabledFlag).optional(),
});
export const ZGoodsListQuery = ZPageQuery.extend({
  ...ZGoodsFilter.shape,
  column: z.enum(GOODS_SORT_COLUMNS).default('createTime'),
}).strict();
export type TGoodsListQuery = z.infer<typeof ZGoodsListQuery>;
export const ZGoodsPage = pageOf(ZGoods);
export type TGoodsPage = z.infer<typeof ZGoodsPage>;
export const ZGoodsExportQuery = ZExportBase.extend(ZGoodsFilter.shape).strict();
export type TGoodsExportQuery = z.infer<typeof ZGoodsExportQuery>;

/** Columns of the goods sheet, in order (the datasheet is not imported). */
export const GOODS_SHEET_COLUMNS = [
  'series',
  'model',
  'hwRevision',
  'description',
  'enabled',
] as const;
export type TGoodsSheetColumn = (typeof GOODS_SHEET_COLUMNS)[number];

/* Locations (位置) ------------------------------------------------------------------------------ */

/** region → site → cabinet: a site's parent is a region or nothing, a cabinet's a site. */
export const LOCATION_KINDS = ['region', 'site', 'cabinet'] as const;
export const ZLocationKind = z.enum(LOCATION_KINDS);
export type TLocationKind = z.infer<typeof ZLocationKind>;

/** The kinds a location of each kind may have as parent; `null`: none (a root). */
export const LOCATION_PARENT_KINDS: Record<TLocationKind, readonly (TLocationKind | null)[]> = {
  region: ['region', null],
  site: ['region', null],
  cabinet: ['site'],
};

/** Locations of one company at most (the tree the device form and the map load whole). */
export const LOCATIONS_MAX = 5000;
/** How deep regions may nest, so that a path stays readable. */
export const LOCATION_DEPTH_MAX = 8;
/** Separator of a location path in sheets and in the device list ("华东/上海站"). */
export const LOCATION_PATH_SEPARATOR = '/';

const ZLatitude = z.number().min(-90).max(90).describe('Degrees, WGS 84');
const ZLongitude = z.number().min(-180).max(180).describe('Degrees, WGS 84');

const ZLocationFields = z.object({
  parentId: ZId.nullish()
    .transform((v) => v ?? null)
    .describe('The parent location; null: a root'),
  kind: ZLocationKind,
  name: ZLine(100).min(1),
  address: ZOptionalLine(255),
  latitude: ZLatitude.nullish().transform((v) => v ?? null),
  longitude: ZLongitude.nullish().transform((v) => v ?? null),
  contactName: ZOptionalLine(64),
  contactPhone: ZContactPhone,
  sortNo: z.number().int().min(0).max(99999).default(0),
});

/** Latitude and longitude come together or not at all. */
function bothOrNeither(
  value: { latitude: number | null; longitude: number | null },
  ctx: z.RefinementCtx,
): void {
  if ((value.latitude === null) !== (value.longitude === null)) {
    const missing = value.latitude === null ? 'latitude' : 'longitude';
    ctx.addIssue({
      code: 'custom',
      path: [missing],
      message: 'latitude and longitude go together: give both or neither',
    });
  }
}

export const ZLocationInput = ZLocationFields.strict().superRefine(bothOrNeither);
export type TLocationInput = z.input<typeof ZLocationInput>;
export type TLocationValues = z.output<typeof ZLocationInput>;
export const ZLocationEdit = ZLocationFields.extend({ id: ZId })
  .strict()
  .superRefine(bothOrNeither);
export type TLocationEdit = z.input<typeof ZLocationEdit>;

export const ZLocation = z.object({
  id: ZId,
  parentId: ZId.nullable(),
  kind: ZLocationKind,
  name: z.string(),
  path: z.string().describe('Names from the root to this location, joined by "/"'),
  address: z.string().nullable(),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  sortNo: z.number().int(),
  hasChildren: z.boolean(),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TLocation = z.infer<typeof ZLocation>;

export const LOCATION_SORT_COLUMNS = ['sortNo', 'name', 'createTime'] as const;
const ZLocationFilter = z.object({
  name: z.string().max(100).optional().describe('Part of the name'),
  kind: ZLocationKind.optional(),
  parentId: ZId.optional().describe('Only the direct children of this location'),
});
export const ZLocationListQuery = ZPageQuery.extend({
  ...ZLocationFilter.shape,
  column: z.enum(LOCATION_SORT_COLUMNS).default('sortNo'),
  order: z.enum(['asc', 'desc']).default('asc'),
}).strict();
export type TLocationListQuery = z.infer<typeof ZLocationListQuery>;
export const ZLocationPage = pageOf(ZLocation);
export type TLocationPage = z.infer<typeof ZLocationPage>;
export const ZLocationExportQuery = ZExportBase.extend(ZLocationFilter.shape).strict();
export type TLocationExportQuery = z.infer<typeof ZLocationExportQuery>;

/** One node of `/base/location/tree`: flat, parents before their children. */
export const ZLocationNode = z.object({
  id: ZId,
  parentId: ZId.nullable(),
  kind: ZLocationKind,
  name: z.string(),
  path: z.string().describe('Names from the root to this location, joined by "/"'),
  latitude: z.number().nullable(),
  longitude: z.number().nullable(),
  sortNo: z.number().int(),
});
export type TLocationNode = z.infer<typeof ZLocationNode>;

export const ZLocationTree = z.object({
  nodes: z
    .array(ZLocationNode)
    .describe(`The company's locations, at most ${LOCATIONS_MAX}, each after its parent`),
  truncated: z.boolean().describe('More locations than returned (never, while the cap holds)'),
});
export type TLocationTree = z.infer<typeof ZLocationTree>;

export interface TLocationTreeItem<T> {
  node: TLocationNode;
  children: TLocationTreeItem<T>[];
  /** What the caller made of the node (`shape(node)`), e.g. a tree-select option. */
  value: T;
}

/**
 * The flat nodes of `/base/location/tree` as a tree, in their order; a node whose parent is not
 * in the list becomes a root. For tree selects and the map.
 */
export function locationTree<T>(
  nodes: readonly TLocationNode[],
  shape: (node: TLocationNode) => T,
): TLocationTreeItem<T>[] {
  const byId = new Map<string, TLocationTreeItem<T>>();
  for (const node of nodes) byId.set(node.id, { node, children: [], value: shape(node) });
  const roots: TLocationTreeItem<T>[] = [];
  for (const item of byId.values()) {
    const parent = item.node.parentId ? byId.get(item.node.parentId) : undefined;
    (parent ? parent.children : roots).push(item);
  }
  return roots;
}

/** A location as a walk up its tree needs it. */
export interface TLocationLink {
  name: string;
  parentId: string | null;
}

/**
 * Names from the top of the tree down to the location, joined by `separator`. A chain that breaks
 * (a parent not in `byId`) or loops stops there, so a damaged tree still gives a readable path.
 */
export function locationPath(
  id: string,
  byId: ReadonlyMap<string, TLocationLink>,
  separator: string = LOCATION_PATH_SEPARATOR,
): string {
  const names: string[] = [];
  const seen = new Set<string>();
  for (let key: string | null = id; key !== null && !seen.has(key);) {
    const at = byId.get(key);
    if (!at) break;
    seen.add(key);
    names.unshift(at.name);
    key = at.parentId;
  }
  return names.join(separator);
}

/** Columns of the location sheet, in order; `parent` is a path ("华东/上海站") or a name. */
export const LOCATION_SHEET_COLUMNS = [
  'parent',
  'kind',
  'name',
  'address',
  'latitude',
  'longitude',
  'contactName',
  'contactPhone',
  'sortNo',
] as const;
export type TLocationSheetColumn = (typeof LOCATION_SHEET_COLUMNS)[number];

/* Vendors (供应商) ------------------------------------------------------------------------------ */

export const VENDOR_KINDS = ['supplier', 'installer', 'carrier', 'maintainer'] as const;
export const ZVendorKind = z.enum(VENDOR_KINDS);
export type TVendorKind = z.infer<typeof ZVendorKind>;

const ZVendorFields = z.object({
  name: ZLine(100).min(1),
  kind: ZVendorKind,
  contactName: ZOptionalLine(64),
  contactPhone: ZContactPhone,
  contactEmail: z
    .union([z.email().max(128), z.literal('')])
    .nullish()
    .transform((v) => (v ? v : null)),
  contractNo: ZOptionalLine(64),
  contractStart: ZOptionalDate,
  contractEnd: ZOptionalDate,
  warrantyEnd: ZOptionalDate,
  remark: ZOptionalLine(500),
});

/** A contract's end, and the warranty's, are not before the contract's start. */
function datesInOrder(
  value: { contractStart: string | null; contractEnd: string | null; warrantyEnd: string | null },
  ctx: z.RefinementCtx,
): void {
  const start = value.contractStart;
  if (!start) return;
  for (const field of ['contractEnd', 'warrantyEnd'] as const) {
    const end = value[field];
    if (end && end < start) {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: 'must not be before the contract start',
      });
    }
  }
}

export const ZVendorInput = ZVendorFields.strict().superRefine(datesInOrder);
export type TVendorInput = z.input<typeof ZVendorInput>;
export type TVendorValues = z.output<typeof ZVendorInput>;
export const ZVendorEdit = ZVendorFields.extend({ id: ZId }).strict().superRefine(datesInOrder);
export type TVendorEdit = z.input<typeof ZVendorEdit>;

export const ZVendor = z.object({
  id: ZId,
  name: z.string(),
  kind: ZVendorKind,
  contactName: z.string().nullable(),
  contactPhone: z.string().nullable(),
  contactEmail: z.string().nullable(),
  contractNo: z.string().nullable(),
  contractStart: z.string().nullable(),
  contractEnd: z.string().nullable(),
  warrantyEnd: z.string().nullable(),
  remark: z.string().nullable(),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TVendor = z.infer<typeof ZVendor>;

export const VENDOR_SORT_COLUMNS = ['name', 'kind', 'contractEnd', 'createTime'] as const;
const ZVendorFilter = z.object({
  name: z.string().max(100).optional().describe('Part of the name'),
  kind: ZVendorKind.optional(),
});
export const ZVendorListQuery = ZPageQuery.extend({
  ...ZVendorFilter.shape,
  column: z.enum(VENDOR_SORT_COLUMNS).default('createTime'),
}).strict();
export type TVendorListQuery = z.infer<typeof ZVendorListQuery>;
export const ZVendorPage = pageOf(ZVendor);
export type TVendorPage = z.infer<typeof ZVendorPage>;
export const ZVendorExportQuery = ZExportBase.extend(ZVendorFilter.shape).strict();
export type TVendorExportQuery = z.infer<typeof ZVendorExportQuery>;

export const VENDOR_SHEET_COLUMNS = [
  'name',
  'kind',
  'contactName',
  'contactPhone',
  'contactEmail',
  'contractNo',
  'contractStart',
  'contractEnd',
  'warrantyEnd',
  'remark',
] as const;
export type TVendorSheetColumn = (typeof VENDOR_SHEET_COLUMNS)[number];
