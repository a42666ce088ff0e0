/**
 * The server answers bad input with a 400 whose message names each field and its rule,
 * `field.path: rule; other: rule` (server/src/platform/http/validation-message.ts). This splits
 * such a message so that a form can show each rule under the field it names.
 */

export type FieldProblem = { path: string[]; message: string };

/** A form field's name path as antd takes it, e.g. `['target', 'versionFrom']`. */
export type FieldName = readonly (string | number)[];

export function parseFieldProblems(message: string): FieldProblem[] {
  return message
    .split('; ')
    .map((part) => /^([A-Za-z_][\w.]*): (.+)$/s.exec(part.trim()))
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => ({ path: match[1]!.split('.'), message: match[2]! }));
}

/**
 * The problems of `message` that concern a field of the form, as antd's `setFields` takes them.
 * `fieldOf` maps a server path to the form's field (or null when the form has no such field);
 * a message that names no known field comes back in `rest`, for the caller to show as a whole.
 */
export function fieldErrorsOf(
  message: string,
  fieldOf: (path: string[]) => FieldName | null,
): { fields: { name: FieldName; errors: string[] }[]; rest: string | null } {
  const byField = new Map<string, { name: FieldName; errors: string[] }>();
  const unplaced: string[] = [];
  for (const problem of parseFieldProblems(message)) {
    const name = fieldOf(problem.path);
    if (!name) {
      unplaced.push(`${problem.path.join('.')}: ${problem.message}`);
      continue;
    }
    const key = name.join('.');
    const entry = byField.get(key) ?? { name, errors: [] };
    entry.errors.push(problem.message);
    byField.set(key, entry);
  }
  const fields = [...byField.values()];
  if (fields.length === 0) return { fields, rest: message };
  return { fields, rest: unplaced.length > 0 ? unplaced.join('; ') : null };
}
