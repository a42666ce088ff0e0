import {
  ONLINE_RECORD_FIXED_SORTS,
  ONLINE_SEARCHABLE_TYPES,
  ONLINE_SORTABLE_TYPES,
  ONLINE_UNIQUE_TYPES,
  ZOnlineField,
  fieldValueSchema,
  isEmptyValue,
  type TOnlineField,
  type TOnlineFieldInput,
  type TOnlineFieldType,
  type TOnlineRecord,
  type TOnlineRecordData,
  type TOnlineSearch,
  type TOnlineValue,
} from '@blrms/contracts';
import dayjs, { type Dayjs } from 'dayjs';
import type { TFunction } from 'i18next';
import type { Language } from '../../shared/language';

/**
 * The pure part of online forms in the console: how a definition's fields become list columns,
 * search values, form values and messages. The pages only put these on antd components.
 */

export const DATE_FORMAT = 'YYYY-MM-DD';

/** A field's label in the reader's language: the English one in en-US when there is one. */
export function fieldLabel(
  field: Pick<TOnlineField, 'label' | 'labelEn'>,
  language: Language | string,
): string {
  return language === 'en-US' && field.labelEn ? field.labelEn : field.label;
}

/** A form's name in the reader's language. */
export function formName(
  form: { name: string; nameEn: string | null },
  language: Language | string,
): string {
  return language === 'en-US' && form.nameEn ? form.nameEn : form.name;
}

/** What each flag of a field is allowed for (the contract's lists; the server checks the same). */
export function flagsOf(type: TOnlineFieldType): {
  unique: boolean;
  sortable: boolean;
  searchable: boolean;
} {
  return {
    unique: ONLINE_UNIQUE_TYPES.includes(type),
    sortable: ONLINE_SORTABLE_TYPES.includes(type),
    searchable: ONLINE_SEARCHABLE_TYPES.includes(type),
  };
}

/* Form values ------------------------------------------------------------------------------- */

/** What an antd input of the field holds: dates as dayjs, everything else as sent. */
export type FormValue = string | number | boolean | Dayjs | null | undefined;

/** A stored value as its input holds it. */
export function toFormValue(field: Pick<TOnlineField, 'type'>, value: unknown): FormValue {
  if (value === null || value === undefined) return undefined;
  if (field.type === 'date' && typeof value === 'string') return dayjs(value, DATE_FORMAT);
  if (field.type === 'datetime' && typeof value === 'string') return dayjs(value);
  return value as FormValue;
}

/** An input's value as the API takes it: a day as YYYY-MM-DD, an instant as ISO 8601 (UTC). */
export function fromFormValue(field: Pick<TOnlineField, 'type'>, value: FormValue): TOnlineValue {
  if (value === undefined || value === null) return null;
  if (dayjs.isDayjs(value)) {
    if (!value.isValid()) return null;
    return field.type === 'date' ? value.format(DATE_FORMAT) : value.toISOString();
  }
  return value;
}

/** The record's data from the modal's values, one entry per field. */
export function recordFromForm(
  fields: readonly TOnlineField[],
  values: Record<string, FormValue>,
): TOnlineRecordData {
  return Object.fromEntries(fields.map((f) => [f.key, fromFormValue(f, values[f.key])]));
}

/** The modal's first values: the record's (edit) or each field's default (add). */
export function initialFormValues(
  fields: readonly TOnlineField[],
  record: Pick<TOnlineRecord, 'data' | 'stale'> | null,
): Record<string, FormValue> {
  return Object.fromEntries(
    fields.map((f) => {
      if (record) {
        // A stale value no longer fits the field: the input starts empty and the user fixes it.
        const value = record.stale.includes(f.key) ? undefined : record.data[f.key];
        return [f.key, toFormValue(f, value)];
      }
      const fallback = 'defaultValue' in f ? f.defaultValue : undefined;
      return [f.key, toFormValue(f, f.type === 'switch' ? (fallback ?? false) : fallback)];
    }),
  );
}

/* Validation -------------------------------------------------------------------------------- */

/**
 * Patterns are RE2 on the server; the browser has no RE2, and the common subset (classes,
 * repetitions, anchors, groups) reads the same in JavaScript. A pattern JavaScript cannot read is
 * left to the server.
 */
export function matchPattern(pattern: string, value: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u').test(value);
  } catch {
    return true;
  }
}

/** Why a value is refused, for the message; null when it is accepted. */
export type FieldProblem =
  | { kind: 'required' }
  | { kind: 'range'; min: number | null; max: number | null }
  | { kind: 'precision'; precision: number }
  | { kind: 'minLength'; min: number }
  | { kind: 'maxLength'; max: number }
  | { kind: 'pattern'; hint: string | null }
  | { kind: 'invalid' };

/**
 * Checks one field's value (as the API takes it) with the contract's rules, the same ones
 * `recordSchema` applies on the server, and says which rule refused it.
 */
export function fieldProblem(field: TOnlineField, value: TOnlineValue): FieldProblem | null {
  if (isEmptyValue(value)) return field.required ? { kind: 'required' } : null;
  const input = typeof value === 'string' && field.type !== 'textarea' ? value.trim() : value;
  const parsed = fieldValueSchema(field, { matchPattern }).safeParse(input);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  if (!issue) return { kind: 'invalid' };
  const params = (issue as { params?: { rule?: string; hint?: string | null } }).params;
  if (params?.rule === 'pattern') return { kind: 'pattern', hint: params.hint ?? null };
  if (field.type === 'number') {
    if (params?.rule === 'precision') return { kind: 'precision', precision: field.precision };
    if (issue.code === 'too_small' || issue.code === 'too_big') {
      return { kind: 'range', min: field.min ?? null, max: field.max ?? null };
    }
  }
  if (field.type === 'text' || field.type === 'textarea') {
    if (issue.code === 'too_small') return { kind: 'minLength', min: field.minLength ?? 1 };
    if (issue.code === 'too_big') return { kind: 'maxLength', max: Number(issue.maximum) };
  }
  return { kind: 'invalid' };
}

/** The message shown under the field for a problem. */
export function problemMessage(problem: FieldProblem, label: string, t: TFunction): string {
  switch (problem.kind) {
    case 'required':
      return t('form.required', { field: label });
    case 'range':
      if (problem.min !== null && problem.max !== null) {
        return t('onlineForm.rule.between', { field: label, min: problem.min, max: problem.max });
      }
      return problem.min !== null
        ? t('onlineForm.rule.atLeast', { field: label, min: problem.min })
        : t('onlineForm.rule.atMost', { field: label, max: problem.max });
    case 'precision':
      return problem.precision === 0
        ? t('onlineForm.rule.whole', { field: label })
        : t('onlineForm.rule.decimals', { field: label, precision: problem.precision });
    case 'minLength':
      return t('onlineForm.rule.minLength', { field: label, min: problem.min });
    case 'maxLength':
      return t('form.maxLength', { field: label, max: problem.max });
    case 'pattern':
      return problem.hint ?? t('onlineForm.rule.pattern', { field: label });
    case 'invalid':
      return t('onlineForm.rule.invalid', { field: label });
  }
}

/* List -------------------------------------------------------------------------------------- */

/** Columns the record list can be sorted by: the fixed ones and the sortable fields. */
export function sortColumns(fields: readonly TOnlineField[]): string[] {
  return [
    ...ONLINE_RECORD_FIXED_SORTS,
    ...fields.filter((f) => f.sortable && flagsOf(f.type).sortable).map((f) => f.key),
  ];
}

/** The fields shown as columns, in the definition's order. */
export function listedFields(fields: readonly TOnlineField[]): TOnlineField[] {
  return fields.filter((f) => f.listed);
}

/** The fields of the search bar, in the definition's order. */
export function searchFields(fields: readonly TOnlineField[]): TOnlineField[] {
  return fields.filter((f) => f.searchable && flagsOf(f.type).searchable);
}

/**
 * A cell's text: the server's display text (dictionary label, device SN / name, location, file
 * name, or a stale value) first, then the value in the reader's format. `yesNo` words a switch.
 */
export function cellText(
  field: TOnlineField,
  record: Pick<TOnlineRecord, 'data' | 'display'>,
  yesNo: (on: boolean) => string,
): string {
  const shown = record.display[field.key];
  if (shown !== undefined) return shown;
  const value = record.data[field.key];
  if (value === null || value === undefined || value === '') return '';
  switch (field.type) {
    case 'switch':
      return yesNo(value === true);
    case 'datetime':
      return typeof value === 'string' ? dayjs(value).format('YYYY-MM-DD HH:mm:ss') : String(value);
    default:
      return String(value);
  }
}

/** What the search bar holds for a field. */
export type SearchFormValue =
  | string
  | boolean
  | [Dayjs | null, Dayjs | null]
  | { from?: number | null; to?: number | null }
  | null
  | undefined;

/**
 * The list's `search` from the search bar: texts and exact values as they are, a switch as its
 * state, number and date ranges as `{ from, to }`; empty entries are left out. Undefined when
 * nothing is searched.
 */
export function searchOf(
  fields: readonly TOnlineField[],
  values: Record<string, SearchFormValue>,
): TOnlineSearch | undefined {
  const search: TOnlineSearch = {};
  for (const field of searchFields(fields)) {
    const value = values[field.key];
    if (value === undefined || value === null) continue;
    if (typeof value === 'string') {
      if (value.trim() !== '') search[field.key] = value.trim();
    } else if (typeof value === 'boolean') {
      search[field.key] = value;
    } else if (Array.isArray(value)) {
      const [from, to] = value;
      const at = (day: Dayjs | null, end: boolean) => {
        if (!day) return null;
        if (field.type === 'date') return day.format(DATE_FORMAT);
        return (end ? day.endOf('day') : day.startOf('day')).toISOString();
      };
      if (from || to) search[field.key] = { from: at(from, false), to: at(to, true) };
    } else if (typeof value.from === 'number' || typeof value.to === 'number') {
      search[field.key] = { from: value.from ?? null, to: value.to ?? null };
    }
  }
  return Object.keys(search).length > 0 ? search : undefined;
}

/** A history value as text: switches worded, empty values as a dash. */
export function historyValue(value: TOnlineValue, yesNo: (on: boolean) => string): string {
  if (value === null || value === '') return '—';
  if (typeof value === 'boolean') return yesNo(value);
  return String(value);
}

/**
 * Where a server error about a record's field goes in the modal: `data.<key>` (the body's path)
 * or the bare key, when the form has that field.
 */
export function recordFieldOf(
  fields: readonly TOnlineField[],
  path: readonly string[],
): [string] | null {
  const key = path[0] === 'data' ? path[1] : path[0];
  return key !== undefined && fields.some((f) => f.key === key) ? [key] : null;
}

/* Designer ---------------------------------------------------------------------------------- */

/** A field as the designer's form holds it: every setting of every type, defaults as inputs hold them. */
export type DesignerField = {
  type: TOnlineFieldType;
  key: string;
  label: string;
  labelEn?: string | null;
  required?: boolean;
  unique?: boolean;
  searchable?: boolean;
  listed?: boolean;
  sortable?: boolean;
  minLength?: number | null;
  maxLength?: number | null;
  pattern?: string | null;
  patternHint?: string | null;
  min?: number | null;
  max?: number | null;
  precision?: number | null;
  dictCode?: string;
  accept?: string[] | null;
  maxSizeMb?: number | null;
  defaultValue?: FormValue;
};

/** A new field of a type, with a key not yet taken in the form. */
export function newField(type: TOnlineFieldType, taken: readonly string[]): DesignerField {
  let n = taken.length + 1;
  while (taken.includes(`field_${n}`)) n += 1;
  return {
    type,
    key: `field_${n}`,
    label: '',
    required: false,
    unique: false,
    searchable: false,
    listed: true,
    sortable: false,
    ...(type === 'number' ? { precision: 0 } : {}),
    ...(type === 'switch' ? { defaultValue: false } : {}),
  };
}

const MB = 1024 * 1024;

/** A stored field in the designer's form. */
export function designerFieldOf(field: TOnlineField): DesignerField {
  const { type } = field;
  const base: DesignerField = {
    type,
    key: field.key,
    label: field.label,
    labelEn: field.labelEn ?? null,
    required: field.required,
    unique: field.unique,
    searchable: field.searchable,
    listed: field.listed,
    sortable: field.sortable,
  };
  switch (field.type) {
    case 'text':
      return {
        ...base,
        minLength: field.minLength ?? null,
        maxLength: field.maxLength ?? null,
        pattern: field.pattern ?? null,
        patternHint: field.patternHint ?? null,
        defaultValue: field.defaultValue ?? undefined,
      };
    case 'textarea':
      return {
        ...base,
        minLength: field.minLength ?? null,
        maxLength: field.maxLength ?? null,
        defaultValue: field.defaultValue ?? undefined,
      };
    case 'number':
      return {
        ...base,
        min: field.min ?? null,
        max: field.max ?? null,
        precision: field.precision,
        defaultValue: field.defaultValue ?? undefined,
      };
    case 'date':
    case 'datetime':
    case 'switch':
      return { ...base, defaultValue: toFormValue(field, field.defaultValue) };
    case 'select':
      return { ...base, dictCode: field.dictCode, defaultValue: field.defaultValue ?? undefined };
    case 'file':
      return {
        ...base,
        accept: field.accept ?? null,
        maxSizeMb: field.maxSize ? field.maxSize / MB : null,
      };
    case 'device':
    case 'location':
      return base;
  }
}

const blank = (value: string | null | undefined) =>
  value === undefined || value === null || value.trim() === '' ? null : value.trim();

/**
 * A designer field as the API takes it: only the settings of its type, flags its type cannot
 * have turned off, empty texts as null, defaults as stored values.
 */
export function fieldInputOf(field: DesignerField): TOnlineFieldInput {
  const flags = flagsOf(field.type);
  const base = {
    key: field.key.trim(),
    label: field.label.trim(),
    labelEn: blank(field.labelEn),
    required: field.required ?? false,
    unique: flags.unique && (field.unique ?? false),
    searchable: flags.searchable && (field.searchable ?? false),
    listed: field.listed ?? true,
    sortable: flags.sortable && (field.sortable ?? false),
  };
  const stored = fromFormValue(field, field.defaultValue);
  const text = typeof stored === 'string' && stored !== '' ? stored : null;
  switch (field.type) {
    case 'text':
      return {
        ...base,
        type: 'text',
        minLength: field.minLength ?? null,
        maxLength: field.maxLength ?? null,
        pattern: blank(field.pattern),
        patternHint: blank(field.patternHint),
        defaultValue: text,
      };
    case 'textarea':
      return {
        ...base,
        type: 'textarea',
        minLength: field.minLength ?? null,
        maxLength: field.maxLength ?? null,
        defaultValue: text,
      };
    case 'number':
      return {
        ...base,
        type: 'number',
        min: field.min ?? null,
        max: field.max ?? null,
        precision: field.precision ?? 0,
        defaultValue: typeof stored === 'number' ? stored : null,
      };
    case 'date':
      return { ...base, type: 'date', defaultValue: text };
    case 'datetime':
      return { ...base, type: 'datetime', defaultValue: text };
    case 'switch':
      return { ...base, type: 'switch', defaultValue: typeof stored === 'boolean' ? stored : null };
    case 'select':
      return { ...base, type: 'select', dictCode: field.dictCode ?? '', defaultValue: text };
    case 'file':
      return {
        ...base,
        type: 'file',
        accept: field.accept && field.accept.length > 0 ? field.accept : null,
        maxSize: field.maxSizeMb ? Math.round(field.maxSizeMb * MB) : null,
      };
    case 'device':
      return { ...base, type: 'device' };
    case 'location':
      return { ...base, type: 'location' };
  }
}

/**
 * The fields the preview can draw from the designer's form while it is being edited: those that
 * already make a valid field (a half-typed key or range is left out until it does).
 */
export function previewFields(fields: readonly (DesignerField | undefined)[]): TOnlineField[] {
  return fields.flatMap((field) => {
    if (!field?.type) return [];
    const parsed = ZOnlineField.safeParse(
      fieldInputOf({ ...field, label: field.label || field.key }),
    );
    return parsed.success ? [parsed.data] : [];
  });
}

/** Whether a file's name ends with one of the accepted extensions (none: any). */
export function acceptsFile(accept: readonly string[] | null | undefined, name: string): boolean {
  if (!accept || accept.length === 0) return true;
  const lower = name.toLowerCase();
  return accept.some((ext) => lower.endsWith(ext));
}
