import { z } from 'zod';
import { ZId, ZPageQuery, ZTimestamp, ZTimeZone, pageOf } from './common.js';

export const ZDictCode = z
  .string()
  .regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a dictionary code (letters, digits, _)');

export const ZDictItem = z.object({
  value: z.string(),
  text: z.string().describe('Label in the request language'),
  label: z.string().describe('Same as text'),
  color: z.string().nullable(),
});
export type TDictItem = z.infer<typeof ZDictItem>;

/* Administration of dictionaries (系统管理 → 数据字典) ------------------------------------------ */

/** Items of one dictionary: a select with more options than this is not a select. */
export const DICT_ITEMS_MAX = 500;
/** Dictionaries a company (or the platform) may hold, recycle bin included. */
export const DICTS_MAX = 1000;
/** Import: the file's size and its data rows (one row per item). */
export const DICT_IMPORT_MAX_BYTES = 2 * 1024 * 1024;
export const DICT_IMPORT_ROWS_MAX = 5000;

/** Printable text without line breaks or control characters; blanks are trimmed. */
const ZLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'must not contain control characters');

/** An antd preset colour name or #rrggbb (the console's tags show it). */
export const ZDictItemColor = z
  .string()
  .regex(/^(#[0-9a-fA-F]{6}|[a-z]{3,20})$/, 'must be a colour name (blue) or #rrggbb')
  .nullish();

export const ZDictInput = z
  .object({
    dictName: ZLine(100).min(1),
    dictNameEn: ZLine(100).nullish(),
    dictCode: ZDictCode,
    description: ZLine(255).nullish(),
  })
  .strict();
export type TDictInput = z.infer<typeof ZDictInput>;

export const ZDictEdit = ZDictInput.extend({ id: ZId }).strict();
export type TDictEdit = z.infer<typeof ZDictEdit>;

export const ZDict = z.object({
  id: ZId,
  dictName: z.string(),
  dictNameEn: z.string().nullable(),
  dictCode: z.string(),
  description: z.string().nullable(),
  platform: z.boolean().describe('A platform dictionary, shared by every company'),
  editable: z
    .boolean()
    .describe('Whether the caller may change it (platform ones: platform admins)'),
  overridden: z
    .boolean()
    .describe('A platform dictionary the caller’s company replaced with its own of the same code'),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TDict = z.infer<typeof ZDict>;

export const DICT_SORT_COLUMNS = ['dictCode', 'dictName', 'createTime'] as const;
export const ZDictListQuery = ZPageQuery.extend({
  dictName: z.string().max(100).optional().describe('Part of the name, either language'),
  dictCode: z.string().max(64).optional().describe('Part of the code'),
  column: z.enum(DICT_SORT_COLUMNS).default('createTime'),
}).strict();
export type TDictListQuery = z.infer<typeof ZDictListQuery>;
export const ZDictPage = pageOf(ZDict);
export type TDictPage = z.infer<typeof ZDictPage>;

export const ZDictExportQuery = z
  .object({
    dictName: z.string().max(100).optional(),
    dictCode: z.string().max(64).optional(),
    tz: ZTimeZone.optional(),
    _t: z.string().optional(),
  })
  .strict();
export type TDictExportQuery = z.infer<typeof ZDictExportQuery>;

export const ZDictItemStatus = z
  .union([z.literal(0), z.literal(1)])
  .describe('1 enabled, 0 disabled');

export const ZDictItemInput = z
  .object({
    dictId: ZId,
    itemText: ZLine(100).min(1),
    itemTextEn: ZLine(100).nullish(),
    itemValue: ZLine(100).min(1),
    itemColor: ZDictItemColor,
    description: ZLine(255).nullish(),
    sortOrder: z.number().int().min(0).max(99999).default(0),
    status: ZDictItemStatus.default(1),
  })
  .strict();
export type TDictItemInput = z.input<typeof ZDictItemInput>;

export const ZDictItemEdit = ZDictItemInput.omit({ dictId: true }).extend({ id: ZId }).strict();
export type TDictItemEdit = z.input<typeof ZDictItemEdit>;

export const ZDictItemRow = z.object({
  id: ZId,
  dictId: ZId,
  itemText: z.string(),
  itemTextEn: z.string().nullable(),
  itemValue: z.string(),
  itemColor: z.string().nullable(),
  description: z.string().nullable(),
  sortOrder: z.number().int(),
  status: ZDictItemStatus,
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TDictItemRow = z.infer<typeof ZDictItemRow>;

export const DICT_ITEM_SORT_COLUMNS = ['sortOrder', 'itemValue', 'itemText', 'createTime'] as const;
export const ZDictItemListQuery = ZPageQuery.extend({
  dictId: ZId,
  itemText: z.string().max(100).optional().describe('Part of the text (either language) or value'),
  status: z.coerce.number().pipe(ZDictItemStatus).optional(),
  column: z.enum(DICT_ITEM_SORT_COLUMNS).default('sortOrder'),
  order: z.enum(['asc', 'desc']).default('asc'),
}).strict();
export type TDictItemListQuery = z.infer<typeof ZDictItemListQuery>;
export const ZDictItemPage = pageOf(ZDictItemRow);
export type TDictItemPage = z.infer<typeof ZDictItemPage>;

export const ZDictItemCheckQuery = z
  .object({
    dictId: ZId,
    itemValue: z.string().min(1).max(100),
    id: ZId.optional().describe('The item being edited, which may keep its value'),
    _t: z.string().optional(),
  })
  .strict();
export type TDictItemCheckQuery = z.infer<typeof ZDictItemCheckQuery>;

export const ZDictImportRowError = z.object({
  row: z.number().int().describe('Row number in the sheet, header is row 1'),
  field: z.string().describe('Column key (dictCode, itemValue, …) or "row"'),
  message: z.string().describe('The rule it breaks, in the request language'),
});
export type TDictImportRowError = z.infer<typeof ZDictImportRowError>;

/** All or nothing: with any error, nothing is written and `errors` lists every one found. */
export const ZDictImportResult = z.object({
  applied: z.boolean(),
  dictsCreated: z.number().int(),
  dictsUpdated: z.number().int(),
  itemsCreated: z.number().int(),
  itemsUpdated: z.number().int(),
  errors: z.array(ZDictImportRowError).describe('At most 200, in row order'),
});
export type TDictImportResult = z.infer<typeof ZDictImportResult>;

/** Columns of the import/export sheet, in order. */
export const DICT_SHEET_COLUMNS = [
  'dictCode',
  'dictName',
  'dictNameEn',
  'dictDescription',
  'itemValue',
  'itemText',
  'itemTextEn',
  'itemDescription',
  'sortOrder',
  'status',
] as const;
export type TDictSheetColumn = (typeof DICT_SHEET_COLUMNS)[number];
