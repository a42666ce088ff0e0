import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { RunningServer } from './server.js';

interface OutboxMessage {
  channel: 'mail' | 'sms';
  to: string;
  text: string;
}

/**
 * The newest 6-digit code the server wrote to DATA_DIR/outbox for `to` (it has no SMTP server or
 * SMS gateway in tests), waiting for a message newer than `after` messages to arrive.
 */
export async function codeFromOutbox(
  server: RunningServer,
  to: string,
  after = 0,
  timeout = 10_000,
): Promise<string> {
  const dir = join(server.dataDir, 'outbox');
  const deadline = Date.now() + timeout;
  for (;;) {
    const messages = outboxMessages(dir).filter((m) => m.to === to);
    const code =
      messages.length > after ? /\b(\d{6})\b/.exec(messages.at(-1)?.text ?? '')?.[1] : undefined;
    if (code) return code;
    if (Date.now() > deadline) throw new Error(`no code for ${to} in ${dir}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function outboxCount(server: RunningServer, to: string): number {
  return outboxMessages(join(server.dataDir, 'outbox')).filter((m) => m.to === to).length;
}

function outboxMessages(dir: string): OutboxMessage[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as OutboxMessage);
}
