import type { TFieldError } from '@blrms/contracts';
import type { FormInstance } from 'antd';
import { ApiError, reportApiError } from '../api/errors';

/**
 * The server names the fields of a 400 or 409 in the envelope's `errors`
 * (server/src/platform/http/field-problems.ts). These put each rule under the form field it
 * concerns, as a good admin console does, instead of a notice that names API keys.
 */

/** A form field's name path as antd takes it, e.g. `['target', 'versionFrom']`. */
export type FieldName = readonly (string | number)[];

/** What a failed call says: the message for a person and the fields it concerns. */
export type FieldProblems = { message: string; fields: readonly TFieldError[] };

/**
 * The problems that concern a field of the form, as antd's `setFields` takes them. `fieldOf`
 * maps a server path to the form's field (or null when the form has no such field); what names
 * no known field comes back in `rest`, for the caller to show as a whole.
 */
export function fieldErrorsOf(
  problems: FieldProblems,
  fieldOf: (path: string[]) => FieldName | null,
): { fields: { name: FieldName; errors: string[] }[]; rest: FieldProblems | null } {
  const byField = new Map<string, { name: FieldName; errors: string[] }>();
  const unplaced: TFieldError[] = [];
  for (const problem of problems.fields) {
    const name = fieldOf(problem.field.split('.'));
    if (!name) {
      unplaced.push(problem);
      continue;
    }
    const key = name.join('.');
    const entry = byField.get(key) ?? { name, errors: [] };
    entry.errors.push(problem.message);
    byField.set(key, entry);
  }
  const fields = [...byField.values()];
  if (fields.length === 0) return { fields, rest: problems };
  if (unplaced.length === 0) return { fields, rest: null };
  return { fields, rest: { message: unplaced.map((p) => p.message).join('; '), fields: unplaced } };
}

/** The form's own field at `path`, if it has one (a registered field, with or without a value). */
function formFieldOf(form: FormInstance, path: string[]): FieldName | null {
  let values: unknown = form.getFieldsValue();
  for (const key of path) {
    if (typeof values !== 'object' || values === null || !(key in values)) return null;
    values = (values as Record<string, unknown>)[key];
  }
  return path;
}

/**
 * Shows a failed submit's field errors under the form's fields; the rest of the message, if any,
 * as the usual notice. False when the error names none of the form's fields (the caller's
 * notice stands).
 */
export function showFieldErrors(
  form: FormInstance,
  error: unknown,
  fieldOf: (path: string[]) => FieldName | null = (path) => formFieldOf(form, path),
): boolean {
  if (!(error instanceof ApiError) || error.fields.length === 0) return false;
  const { fields, rest } = fieldErrorsOf(error, fieldOf);
  if (fields.length === 0) return false;
  error.placed = true;
  form.setFields(fields.map((f) => ({ name: [...f.name], errors: f.errors })));
  if (rest) reportApiError(new ApiError(error.status, rest.message, rest.fields));
  return true;
}

/**
 * Runs a form's submit; a server error about its fields lands under them and resolves to false
 * (the form stays open), any other error is rethrown to the caller.
 */
export async function submitForm(
  form: FormInstance,
  submit: () => Promise<unknown>,
  fieldOf?: (path: string[]) => FieldName | null,
): Promise<boolean> {
  try {
    await submit();
    return true;
  } catch (e) {
    if (showFieldErrors(form, e, fieldOf)) return false;
    throw e;
  }
}
