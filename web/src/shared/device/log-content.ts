/**
 * How the log viewer shows a log's content: JSON objects and arrays indented, anything else
 * (plain text, a bare number) as it is.
 */
export function formatLogContent(content: string): { json: boolean; text: string } {
  try {
    const value: unknown = JSON.parse(content);
    if (typeof value === 'object' && value !== null) {
      return { json: true, text: JSON.stringify(value, null, 2) };
    }
  } catch {
    // Not JSON: shown as plain text below.
  }
  return { json: false, text: content };
}
