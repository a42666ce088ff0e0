/**
 * A `like` pattern matching rows that contain `text` literally: % and _ in it are not wildcards.
 * Use it with `escape '\\'`.
 */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
