import { createHash } from 'node:crypto';
import {
  ZOnlineField,
  ZOnlineSearch,
  fieldValueSchema,
  isEmptyValue,
  type TOnlineField,
  type TOnlineRecordData,
  type TOnlineSearch,
  type TOnlineValue,
} from '@blrms/contracts';
import type { FastifySchemaValidationError } from 'fastify';
import { z, type ZodError } from 'zod';
import type { FieldProblem } from '../../platform/http/field-problems.js';
import type { Lang } from '../../platform/http/i18n.js';
import { validationProblems } from '../../platform/http/validation-message.js';

/** Pure rules of online forms: stored shapes, index values, search, changes, sheet cells. */

/** Codes a form may not take: `online:form:*` are the definitions page's own permissions. */
export const RESERVED_FORM_CODES: ReadonlySet<string> = new Set(['form', 'data', 'records']);

/** Characters of a text kept in the index (sort, prefix of a search); longer texts are cut. */
export const INDEX_TEXT_MAX = 200;

const ZStoredFields = z.array(ZOnlineField);

/** A definition's fields as stored (JSON text written by this module only). */
export function parseFields(json: string): TOnlineField[] {
  return ZStoredFields.parse(JSON.parse(json));
}

export function parseData(json: string): TOnlineRecordData {
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as TOnlineRecordData)
    : {};
}

export function labelOf(field: Pick<TOnlineField, 'label' | 'labelEn'>, lang: Lang): string {
  return lang === 'en-US' ? field.labelEn || field.label : field.label;
}

/** Fields with a row in `online_form_value`: searched, sorted or unique. */
export function isIndexed(field: TOnlineField): boolean {
  return field.searchable || field.sortable || field.unique;
}

/** Whether a stored value still fits the field as defined now (else it is shown as text). */
export function fits(field: TOnlineField, value: TOnlineValue | undefined): boolean {
  if (value === undefined || value === null) return true;
  return fieldValueSchema(field).safeParse(value).success;
}

export interface IndexValue {
  field_key: string;
  value_text: string | null;
  value_num: number | null;
  unique_key: string | null;
}

/**
 * The indexed copy of one value: texts (cut to INDEX_TEXT_MAX), ids, dates and select values in
 * `value_text`; numbers, instants (epoch ms) and switches (0/1) in `value_num`. A value that no
 * longer fits the field's type is indexed as empty. `unique_key` is set for unique fields only.
 */
export function indexValue(field: TOnlineField, raw: TOnlineValue | undefined): IndexValue {
  const empty = { field_key: field.key, value_text: null, value_num: null, unique_key: null };
  if (raw === undefined || raw === null || !fits(field, raw)) return empty;
  let text: string | null = null;
  let num: number | null = null;
  let key: string;
  switch (field.type) {
    case 'text':
    case 'textarea': {
      const value = String(raw);
      text = value.slice(0, INDEX_TEXT_MAX);
      key =
        value.length <= INDEX_TEXT_MAX
          ? value
          : `sha256:${createHash('sha256').update(value).digest('hex')}`;
      break;
    }
    case 'number':
      num = Number(raw);
      key = String(num);
      break;
    case 'datetime':
      num = Date.parse(String(raw));
      key = String(num);
      break;
    case 'switch':
      num = raw === true ? 1 : 0;
      key = String(num);
      break;
    case 'date':
    case 'select':
    case 'device':
    case 'location':
    case 'file':
      text = String(raw);
      key = text;
      break;
  }
  return { ...empty, value_text: text, value_num: num, unique_key: field.unique ? key : null };
}

export function indexValues(
  fields: readonly TOnlineField[],
  data: TOnlineRecordData,
): IndexValue[] {
  return fields.filter(isIndexed).map((f) => indexValue(f, data[f.key]));
}

/** Whether the fields' indexed copies would differ: a changed definition rebuilds them. */
export function indexSignature(fields: readonly TOnlineField[]): string {
  return JSON.stringify(fields.filter(isIndexed).map((f) => [f.key, f.type, f.unique]));
}

/** Datetimes are stored in UTC (`toISOString`), whatever offset they came with. */
export function normalise(
  fields: readonly TOnlineField[],
  data: TOnlineRecordData,
): TOnlineRecordData {
  const out: TOnlineRecordData = {};
  for (const field of fields) {
    const value = data[field.key];
    if (value === undefined) continue;
    out[field.key] =
      field.type === 'datetime' && typeof value === 'string'
        ? new Date(Date.parse(value)).toISOString()
        : value;
  }
  return out;
}

export interface Change {
  key: string;
  from: TOnlineValue;
  to: TOnlineValue;
}

/** The values that differ between two versions of a record (keys of either). */
export function changesBetween(before: TOnlineRecordData, after: TOnlineRecordData): Change[] {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return keys.flatMap((key) => {
    const from = before[key] ?? null;
    const to = after[key] ?? null;
    return from === to ? [] : [{ key, from, to }];
  });
}

/* Search ------------------------------------------------------------------------------------- */

export type Filter =
  | { key: string; kind: 'prefix'; text: string }
  | { key: string; kind: 'text'; text: string }
  | { key: string; kind: 'num'; num: number }
  | { key: string; kind: 'numRange'; from: number | null; to: number | null }
  | { key: string; kind: 'textRange'; from: string | null; to: string | null };

/** A field problem of the search parameter, named `search.{key}`. */
export class SearchProblem extends Error {
  constructor(readonly field: string) {
    super(field);
  }
}

function bound(value: unknown, parse: (v: string | number) => number | string | null) {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const parsed = parse(value);
  return parsed === null || (typeof parsed === 'number' && Number.isNaN(parsed))
    ? undefined
    : parsed;
}

/**
 * The search parameter (JSON of ZOnlineSearch) as filters on the value index. Only searchable
 * fields of the definition may be named, each with a value of its type's shape.
 */
export function parseSearch(json: string | undefined, fields: readonly TOnlineField[]): Filter[] {
  if (!json) return [];
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new SearchProblem('search');
  }
  const parsed = ZOnlineSearch.safeParse(raw);
  if (!parsed.success) {
    const path = parsed.error.issues[0]?.path[0];
    throw new SearchProblem(typeof path === 'string' ? `search.${path}` : 'search');
  }
  const search: TOnlineSearch = parsed.data;
  return Object.entries(search).map(([key, value]): Filter => {
    const field = fields.find((f) => f.key === key && f.searchable);
    const problem = new SearchProblem(`search.${key}`);
    if (!field) throw problem;
    switch (field.type) {
      case 'text':
      case 'textarea':
        if (typeof value !== 'string') throw problem;
        return { key, kind: 'prefix', text: value.slice(0, INDEX_TEXT_MAX) };
      case 'select':
      case 'device':
      case 'location':
        if (typeof value !== 'string') throw problem;
        return { key, kind: 'text', text: value };
      case 'switch':
        if (typeof value !== 'boolean') throw problem;
        return { key, kind: 'num', num: value ? 1 : 0 };
      case 'number':
      case 'datetime': {
        if (typeof value !== 'object') throw problem;
        const parse =
          field.type === 'number'
            ? (v: string | number) => Number(v)
            : (v: string | number) => (typeof v === 'string' ? Date.parse(v) : v);
        const from = bound(value.from, parse);
        const to = bound(value.to, parse);
        if (from === undefined || to === undefined) throw problem;
        return { key, kind: 'numRange', from: from as number | null, to: to as number | null };
      }
      case 'date': {
        if (typeof value !== 'object') throw problem;
        const date = (v: string | number) =>
          typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v) ? v : null;
        const from = bound(value.from, date);
        const to = bound(value.to, date);
        if (from === undefined || to === undefined) throw problem;
        return { key, kind: 'textRange', from: from as string | null, to: to as string | null };
      }
      case 'file':
        throw problem;
    }
  });
}

/* Validation problems -------------------------------------------------------------------------- */

/**
 * A record's zod issues as field problems (`data.{key}`) in the request's language, each rule
 * after the field's label so the message names the field as the form shows it.
 */
export function recordProblems(
  error: ZodError,
  fields: readonly TOnlineField[],
  lang: Lang,
  prefix: string,
): FieldProblem[] {
  const issues = error.issues.map((issue): FastifySchemaValidationError => ({
    keyword: issue.code,
    instancePath: `/${[prefix, ...issue.path.map(String)].join('/')}`,
    schemaPath: '',
    message: issue.message,
    params: { ...issue } as Record<string, unknown>,
  }));
  return validationProblems(issues, prefix, lang).map((p) => {
    const key = p.field.split('.')[1];
    const field = fields.find((f) => f.key === key);
    if (!field) return p;
    return { field: p.field, message: withLabel(labelOf(field, lang), p.message, lang) };
  });
}

export function withLabel(label: string, rule: string, lang: Lang): string {
  return lang === 'en-US' ? `${label} ${rule}` : `${label}${rule}`;
}

/** Problems as the text of a catalogue message (`field: rule; field: rule`). */
export function problemsText(problems: readonly FieldProblem[]): string {
  return problems.map((p) => `${p.field}: ${p.message}`).join('; ');
}

/* Sheet cells ---------------------------------------------------------------------------------- */

/** A cell of an import as a value of the field (texts trimmed; empty cells empty). */
export function cellValue(field: TOnlineField, cell: string): TOnlineValue | string {
  const text = cell.trim();
  if (text === '') return null;
  switch (field.type) {
    case 'number': {
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
    case 'switch': {
      const lower = text.toLowerCase();
      if (['1', 'true', 'yes', 'y', '是', '开', 'on'].includes(lower)) return true;
      if (['0', 'false', 'no', 'n', '否', '关', 'off'].includes(lower)) return false;
      return text;
    }
    case 'datetime': {
      // A local "YYYY-MM-DD HH:mm[:ss]" as exported is read in the importer's zone offset-free:
      // without an offset it is taken as UTC, which the export writes with an explicit Z.
      const local = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}(?::\d{2})?)$/.exec(text);
      return local ? `${local[1]}T${local[2]}${local[2]!.length === 5 ? ':00' : ''}Z` : text;
    }
    case 'textarea':
      return cell;
    default:
      return text;
  }
}

/** How a value is written in an export cell (references by their display text). */
export function cellText(value: TOnlineValue | undefined, display: string | undefined): string {
  if (display !== undefined) return display;
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  return String(value);
}

export { isEmptyValue };
