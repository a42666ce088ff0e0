import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** A message written to `DATA_DIR/outbox/` instead of being delivered. */
export interface OutboxMessage {
  channel: 'mail' | 'sms';
  to: string;
  subject: string | null;
  text: string;
  createTime: number;
}

/**
 * One JSON file per message, named so that a directory listing sorts by time. Operators read it
 * when no SMTP server or SMS gateway is configured; tests read it to get the codes.
 */
export class Outbox {
  constructor(readonly dir: string) {}

  async write(message: OutboxMessage): Promise<string> {
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    const name = `${message.createTime}-${message.channel}-${randomBytes(4).toString('hex')}.json`;
    const file = path.join(this.dir, name);
    // Written aside and renamed: whoever lists the folder never reads half a message.
    const partial = path.join(this.dir, `.${name}.partial`);
    await fs.writeFile(partial, `${JSON.stringify(message, null, 2)}\n`, { mode: 0o600 });
    await fs.rename(partial, file);
    return file;
  }
}
