import { changedPaths } from '@blrms/contracts';
import type { ConfigField, ConfigValueField } from './config-fields';
import { valueAt, valueFields } from './config-fields';

/** One field of the side-by-side view: what the platform wants and what the device runs. */
export type ConfigRow = {
  path: string;
  /** Null for a key the device reports that the series' schema does not have. */
  field: ConfigValueField | null;
  desired: unknown;
  reported: unknown;
  differs: boolean;
};

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Desired and reported configuration field by field, in the schema's order, followed by keys only
 * the device has. A field differs only when both sides have a value for it (a field the platform
 * did not set, or the device has not reported, is no difference).
 */
export function compareConfigs(
  fields: ConfigField[],
  desired: Record<string, unknown> | null,
  reported: Record<string, unknown> | null,
): ConfigRow[] {
  const differs = (d: unknown, r: unknown) => d !== undefined && r !== undefined && !same(d, r);
  const rows: ConfigRow[] = valueFields(fields).map((field) => {
    const d = valueAt(desired, field.path);
    const r = valueAt(reported, field.path);
    return { path: field.path, field, desired: d, reported: r, differs: differs(d, r) };
  });
  const known = new Set(rows.map((row) => row.path));
  const isKnown = (path: string) => [...known].some((k) => path === k || path.startsWith(`${k}.`));
  const extra = changedPaths(desired ?? {}, reported ?? {}).filter((path) => !isKnown(path));
  for (const path of extra) {
    const d = valueAt(desired, path);
    const r = valueAt(reported, path);
    rows.push({ path, field: null, desired: d, reported: r, differs: differs(d, r) });
  }
  return rows;
}
