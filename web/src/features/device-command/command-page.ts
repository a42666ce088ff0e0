import type { TDeviceCommand, TPage } from '@blrms/contracts';

/** What the panel reads of a page (commands sent and answered patch the cached one). */
export type CommandPage = Pick<TPage<TDeviceCommand>, 'records' | 'total'>;

/**
 * A page of a device's commands after a command was sent or answered: a known command is
 * replaced in place; a new one joins the top of the first page (the list is newest first) and
 * pushes the last row off. Other pages keep their rows; they reload when opened. A fast device's
 * answer can arrive before the response to the send: a `sent` never replaces an outcome.
 */
export function withCommand(
  page: CommandPage,
  pageNo: number,
  pageSize: number,
  command: TDeviceCommand,
): CommandPage {
  const index = page.records.findIndex((c) => c.id === command.id);
  if (index >= 0) {
    if (command.state === 'sent' && page.records[index]!.state !== 'sent') return page;
    const records = page.records.slice();
    records[index] = command;
    return { ...page, records };
  }
  if (pageNo !== 1) return { ...page, total: page.total + 1 };
  return {
    records: [command, ...page.records].slice(0, pageSize),
    total: page.total + 1,
  };
}

/** Milliseconds from sending a command to its answer (null while it waits or after a timeout). */
export function replyMs(command: TDeviceCommand): number | null {
  if (!command.replyTime || command.state === 'timeout') return null;
  return Math.max(0, Date.parse(command.replyTime) - Date.parse(command.createTime));
}

/** A command's result or error as the console shows it: JSON, indented. */
export function formatResult(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value, null, 2);
}

/** Free-form command parameters typed as JSON: an object, or nothing. */
export function parseParams(
  text: string,
): { params: Record<string, unknown> | undefined } | { problem: 'json' | 'object' } {
  if (text.trim() === '') return { params: undefined };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'json' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { problem: 'object' };
  }
  return { params: value as Record<string, unknown> };
}
