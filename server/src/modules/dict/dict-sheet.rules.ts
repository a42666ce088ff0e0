import { DICT_SHEET_COLUMNS, ZDictCode, type TDictSheetColumn } from '@blrms/contracts';
import type { Lang } from '../../platform/http/i18n.js';

/**
 * The dictionaries' sheet: one row per item, the dictionary's columns repeated on each (a
 * dictionary without items is one row with empty item cells). Export writes the headers in the
 * request language; import reads them in either language, or as the column keys.
 */
export const DICT_SHEET_HEADERS: Record<TDictSheetColumn, Record<Lang, string>> = {
  dictCode: { 'zh-CN': '字典编码', 'en-US': 'Dictionary code' },
  dictName: { 'zh-CN': '字典名称', 'en-US': 'Dictionary name' },
  dictNameEn: { 'zh-CN': '字典英文名称', 'en-US': 'Dictionary name (English)' },
  dictDescription: { 'zh-CN': '字典描述', 'en-US': 'Dictionary description' },
  itemValue: { 'zh-CN': '数据值', 'en-US': 'Item value' },
  itemText: { 'zh-CN': '名称', 'en-US': 'Item text' },
  itemTextEn: { 'zh-CN': '英文名称', 'en-US': 'Item text (English)' },
  itemDescription: { 'zh-CN': '描述', 'en-US': 'Item description' },
  sortOrder: { 'zh-CN': '排序', 'en-US': 'Order' },
  status: { 'zh-CN': '启用(1/0)', 'en-US': 'Enabled (1/0)' },
};

/** Columns an import cannot do without. */
export const DICT_SHEET_REQUIRED: TDictSheetColumn[] = ['dictCode', 'itemValue', 'itemText'];

export const DICT_SHEET_MAX_LENGTH: Record<TDictSheetColumn, number> = {
  dictCode: 64,
  dictName: 100,
  dictNameEn: 100,
  dictDescription: 255,
  itemValue: 100,
  itemText: 100,
  itemTextEn: 100,
  itemDescription: 255,
  sortOrder: 5,
  status: 1,
};

const normalise = (text: string) => text.trim().toLowerCase().replace(/\s+/g, ' ');

const HEADER_LOOKUP = new Map<string, TDictSheetColumn>(
  DICT_SHEET_COLUMNS.flatMap((column) => [
    [normalise(column), column],
    [normalise(DICT_SHEET_HEADERS[column]['zh-CN']), column],
    [normalise(DICT_SHEET_HEADERS[column]['en-US']), column],
  ]),
);

/** Where each known column is in the header row; unknown columns are ignored. */
export function mapDictHeader(header: string[]): Map<TDictSheetColumn, number> {
  const columns = new Map<TDictSheetColumn, number>();
  header.forEach((cell, index) => {
    const column = HEADER_LOOKUP.get(normalise(cell));
    if (column && !columns.has(column)) columns.set(column, index);
  });
  return columns;
}

export const isDictCode = (code: string) => ZDictCode.safeParse(code).success;

// eslint-disable-next-line no-control-regex
export const hasControlChars = (text: string) => /[\u0000-\u001f\u007f]/.test(text);

export const SORT_PATTERN = /^\d{1,5}$/;
export const STATUS_PATTERN = /^[01]$/;
