/** `like` patterns match the text literally: % and _ in a search are not wildcards. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
