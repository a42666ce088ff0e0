import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/app.js';

const RESPONSES: Record<string, string> = {
  DATA: '354 go on',
  QUIT: '221 bye',
};

/** The least of an SMTP server that nodemailer talks to: it keeps the DATA of every mail. */
function smtpSink() {
  const mails: { from: string; to: string[]; data: string }[] = [];
  const server = net.createServer((socket) => {
    let from = '';
    let to: string[] = [];
    let data: string | null = null;
    let buffer = '';
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 sink ESMTP');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (data !== null) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          data += buffer.slice(0, end);
          buffer = buffer.slice(end + 5);
          mails.push({ from, to, data });
          data = null;
          reply('250 queued');
          continue;
        }
        const eol = buffer.indexOf('\r\n');
        if (eol < 0) return;
        const line = buffer.slice(0, eol);
        buffer = buffer.slice(eol + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'MAIL') from = line;
        if (verb === 'RCPT') to.push(line);
        if (verb === 'RSET') to = [];
        if (verb === 'DATA') data = '';
        reply(RESPONSES[verb] ?? '250 ok');
        if (verb === 'QUIT') socket.end();
      }
    });
  });
  return { server, mails };
}

describe('mail through SMTP_URL', () => {
  let t: TestContext;
  let dataDir: string;
  const sink = smtpSink();

  beforeAll(async () => {
    await new Promise<void>((r) => sink.server.listen(0, '127.0.0.1', r));
    const port = (sink.server.address() as net.AddressInfo).port;
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'blrms-smtp-'));
    t = await createTestApp({
      env: { DATA_DIR: dataDir, SMTP_URL: `smtp://127.0.0.1:${port}/?from=noreply%40blrms.test` },
    });
  });
  afterAll(async () => {
    await t.close();
    sink.server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers the registration code to the SMTP server instead of the outbox', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sys/user/registerEmailCode',
      payload: { email: 'smtp-user@example.com' },
      headers: { 'accept-language': 'en-US' },
    });
    expect(res.statusCode).toBe(200);
    expect(sink.mails).toHaveLength(1);
    const mail = sink.mails[0];
    expect(mail?.from).toContain('<noreply@blrms.test>');
    expect(mail?.to.join()).toContain('<smtp-user@example.com>');
    expect(mail?.data).toContain('Subject: Your BLRMS verification code');
    expect(mail?.data).toMatch(/Your verification code is \d{6}\./);
    expect(fs.existsSync(path.join(dataDir, 'outbox'))).toBe(false);
  });
});
