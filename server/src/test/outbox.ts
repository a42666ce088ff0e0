import fs from 'node:fs';
import path from 'node:path';
import type { OutboxMessage } from '../platform/mail/outbox.js';

/** Messages in DATA_DIR/outbox sent to `to`, oldest first. */
export function outboxFor(dataDir: string, to: string): OutboxMessage[] {
  const dir = path.join(dataDir, 'outbox');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as OutboxMessage)
    .filter((m) => m.to === to);
}

/** The code in the newest message to `to`. */
export function lastCode(dataDir: string, to: string): string {
  const messages = outboxFor(dataDir, to);
  const code = /\b(\d{6})\b/.exec(messages.at(-1)?.text ?? '')?.[1];
  if (!code) throw new Error(`no code in the outbox for ${to}`);
  return code;
}
