/**
 * The one rule against spreadsheet formula injection (CSV/XLSX injection): a text cell whose
 * first character would make a spreadsheet program read it as a formula (`=`, `+`, `-`, `@`, tab,
 * carriage return) is written with a leading `'`, the spreadsheet's own "this is text" marker.
 * Device model and firmware text come from devices over MQTT, so no exported text is trusted.
 */
const LIVE_START = /^[=+\-@\t\r]/;

/** The text as written to any sheet cell: defused when it could run as a formula. */
export function defuse(text: string): string {
  return LIVE_START.test(text) ? `'${text}` : text;
}

/**
 * The text of an imported cell, with our own marker taken off: a `'` is ours exactly when it
 * stands before a character that `defuse` guards, so an exported cell imports as it was and any
 * other leading `'` (an apostrophe someone typed) stays.
 */
export function restore(text: string): string {
  return text.startsWith("'") && LIVE_START.test(text.slice(1)) ? text.slice(1) : text;
}
