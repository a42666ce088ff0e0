import type { TDeviceConfigState, TDeviceSeries } from '@blrms/contracts';
import { configJsonSchema, isConfigObject, mergePatch } from '@blrms/contracts';

/*
 * The form of a series' configuration, read from the JSON Schema the contracts make of its zod
 * schema: nested objects become sections, enums selects, booleans switches, numbers number inputs,
 * strings text or password inputs, arrays of objects editable lists and arrays of strings tag
 * lists. The console never hand-writes a series' fields, so a field added to the contracts shows
 * up in the form by itself (with its schema title until it is translated).
 */

type JsonSchema = {
  type?: string;
  title?: string;
  format?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
};

type FieldBase = {
  /** The property name: the form name inside its section or list row. */
  key: string;
  /** Dotted path without list indices, e.g. `modbus.slaves.address`: the label's key. */
  path: string;
  /** The schema's title, shown when the console has no translation for the path. */
  title: string;
};

export type ConfigOption = string | number;

export type ConfigField =
  | (FieldBase & { kind: 'section'; fields: ConfigField[] })
  | (FieldBase & { kind: 'select'; options: ConfigOption[] })
  | (FieldBase & { kind: 'switch' })
  | (FieldBase & { kind: 'number'; integer: boolean; min?: number; max?: number })
  | (FieldBase & { kind: 'text'; password: boolean; minLength?: number; maxLength?: number })
  | (FieldBase & { kind: 'list'; item: ConfigField[]; maxItems?: number })
  | (FieldBase & { kind: 'tags'; maxItems?: number; maxLength?: number });

/** A field that holds one value in the configuration (a list or tag list counts as one). */
export type ConfigValueField = Exclude<ConfigField, { kind: 'section' }>;

function optionsOf(schema: JsonSchema): ConfigOption[] | null {
  if (schema.enum?.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return schema.enum as ConfigOption[];
  }
  const consts = schema.anyOf?.map((s) => s.const);
  if (consts?.every((v) => typeof v === 'string' || typeof v === 'number')) return consts;
  return null;
}

function fieldOf(key: string, path: string, schema: JsonSchema): ConfigField {
  const base = { key, path, title: schema.title ?? key };
  const options = optionsOf(schema);
  if (options) return { ...base, kind: 'select', options };
  switch (schema.type) {
    case 'object':
      return { ...base, kind: 'section', fields: fieldsOf(schema, path) };
    case 'boolean':
      return { ...base, kind: 'switch' };
    case 'integer':
    case 'number':
      return {
        ...base,
        kind: 'number',
        integer: schema.type === 'integer',
        min: schema.minimum,
        max: schema.maximum,
      };
    case 'string':
      return {
        ...base,
        kind: 'text',
        password: schema.format === 'password',
        minLength: schema.minLength,
        maxLength: schema.maxLength,
      };
    case 'array': {
      const items = schema.items ?? {};
      if (items.type === 'object') {
        return { ...base, kind: 'list', item: fieldsOf(items, path), maxItems: schema.maxItems };
      }
      if (items.type === 'string') {
        return { ...base, kind: 'tags', maxItems: schema.maxItems, maxLength: items.maxLength };
      }
    }
  }
  // The schemas are the contracts' own; a shape the form cannot edit is a bug found by the tests.
  throw new Error(`configuration field ${path} has a shape the form does not support`);
}

function fieldsOf(schema: JsonSchema, prefix: string): ConfigField[] {
  return Object.entries(schema.properties ?? {}).map(([key, property]) =>
    fieldOf(key, prefix ? `${prefix}.${key}` : key, property),
  );
}

const cache = new Map<TDeviceSeries, ConfigField[]>();

/** The fields of a series' configuration, in the schema's order. */
export function configFields(series: TDeviceSeries): ConfigField[] {
  let fields = cache.get(series);
  if (!fields) {
    fields = fieldsOf(configJsonSchema(series) as JsonSchema, '');
    cache.set(series, fields);
  }
  return fields;
}

/** Every field of the tree, sections and list rows included (for labels). */
export function allFields(fields: ConfigField[]): ConfigField[] {
  return fields.flatMap((f) => [
    f,
    ...(f.kind === 'section' ? allFields(f.fields) : f.kind === 'list' ? allFields(f.item) : []),
  ]);
}

/** The fields that each hold one value of the configuration, sections opened up. */
export function valueFields(fields: ConfigField[]): ConfigValueField[] {
  return fields.flatMap((f) => (f.kind === 'section' ? valueFields(f.fields) : [f]));
}

type ConfigObject = Record<string, unknown>;

/** The value at a dotted path of a configuration, list indices included (undefined when absent). */
export function valueAt(config: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => {
    if (Array.isArray(v)) return /^\d+$/.test(key) ? v[Number(key)] : undefined;
    return isConfigObject(v) ? v[key] : undefined;
  }, config);
}

/** Sets the value at a dotted path, making the objects on the way. */
export function setValueAt(target: ConfigObject, path: string, value: unknown): void {
  const keys = path.split('.');
  const last = keys.pop()!;
  let node = target;
  for (const key of keys) {
    if (!isConfigObject(node[key])) node[key] = {};
    node = node[key] as ConfigObject;
  }
  node[last] = value;
}

/** A value a patch-mode field holds when the user has set nothing (or cleared it again). */
export function isUnset(value: unknown): boolean {
  return value === undefined || value === null;
}

/** A secret (password) field left empty: it keeps the value the device has. */
export function isKeptSecret(field: ConfigValueField, value: unknown): boolean {
  return field.kind === 'text' && field.password && (isUnset(value) || value === '');
}

/**
 * The JSON Merge Patch of a change: the fields the user set, nested as the configuration is
 * (a secret left empty is not set: the device keeps it). A list goes in whole (a merge patch
 * replaces arrays), even emptied.
 */
export function patchOf(fields: ConfigField[], values: unknown): ConfigObject {
  const patch: ConfigObject = {};
  for (const field of valueFields(fields)) {
    const value = valueAt(values, field.path);
    if (!isUnset(value) && !isKeptSecret(field, value)) setValueAt(patch, field.path, value);
  }
  return patch;
}

/**
 * What the platform knows of a device's configuration, as the server reckons it: what the device
 * reported, with the desired fields it has not reported yet on top. A field in neither is unknown.
 */
export function knownConfigOf(state: TDeviceConfigState): ConfigObject {
  const reported = state.reported?.config ?? null;
  const desired = state.desired?.config ?? null;
  if (reported && (state.reported?.version ?? 0) >= (state.desired?.version ?? 0)) return reported;
  const known = mergePatch(reported ?? {}, desired ?? {});
  return isConfigObject(known) ? known : {};
}

/** Whether every field of the series has a known value. */
export function isWholeConfig(fields: ConfigField[], config: unknown): boolean {
  return valueFields(fields).every((f) => valueAt(config, f.path) !== undefined);
}

/**
 * Form values for editing what is known: unknown fields stay empty, and so do secrets (the
 * platform shows them masked; left empty, they keep their value).
 */
export function editValuesOf(fields: ConfigField[], known: unknown): ConfigObject {
  const values = formValuesOf(fields, known, {});
  for (const field of valueFields(fields)) {
    if (field.kind === 'text' && field.password) setValueAt(values, field.path, undefined);
  }
  return values;
}

/**
 * A configuration cut to the schema's fields and filled in from `base` where it lacks one: what
 * the editor starts from (a device may report keys of a newer firmware, or leave some out).
 */
export function formValuesOf(fields: ConfigField[], config: unknown, base: unknown): ConfigObject {
  const out: ConfigObject = {};
  for (const f of fields) {
    const own = isConfigObject(config) ? config[f.key] : undefined;
    const fallback = isConfigObject(base) ? base[f.key] : undefined;
    out[f.key] = f.kind === 'section' ? formValuesOf(f.fields, own, fallback) : (own ?? fallback);
  }
  return out;
}

/**
 * A new row of a list: its first integer field (a channel, an address) takes the lowest value not
 * used by another row, selects their first option, switches off; numbers and texts are left for
 * the user.
 */
export function newListRow(item: ConfigField[], rows: unknown[]): ConfigObject {
  const row: ConfigObject = {};
  const keyField = item.find(
    (f): f is Extract<ConfigField, { kind: 'number' }> => f.kind === 'number' && f.integer,
  );
  for (const f of item) {
    if (f === keyField) {
      const used = new Set(rows.map((r) => (isConfigObject(r) ? r[f.key] : undefined)));
      let next = f.min ?? 0;
      while (used.has(next) && (f.max === undefined || next < f.max)) next++;
      row[f.key] = next;
    } else if (f.kind === 'select') row[f.key] = f.options[0];
    else if (f.kind === 'switch') row[f.key] = false;
    else if (f.kind === 'text') row[f.key] = '';
  }
  return row;
}

/**
 * The form field a configuration path names (zod's issue path or a server message's), as antd's
 * name path: list rows keep their index; an item of a tag list names the tag list.
 */
export function formNameOf(
  fields: ConfigField[],
  path: readonly (string | number)[],
): { name: (string | number)[]; field: ConfigValueField; rest: (string | number)[] } | null {
  const name: (string | number)[] = [];
  let level = fields;
  for (let i = 0; i < path.length; i++) {
    const field = level.find((f) => f.key === String(path[i]));
    if (!field) return null;
    name.push(field.key);
    if (field.kind === 'section') {
      level = field.fields;
      continue;
    }
    if (field.kind === 'list') {
      const index = Number(path[i + 1]);
      if (i + 1 >= path.length) return { name, field, rest: [] };
      if (!Number.isInteger(index)) return null;
      name.push(index);
      i++;
      level = field.item;
      continue;
    }
    // A leaf or a tag list: deeper segments (a tag's index) belong to it.
    return { name, field, rest: path.slice(i + 1) };
  }
  return null;
}
