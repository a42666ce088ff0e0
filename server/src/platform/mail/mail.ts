import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Clock } from '../clock.js';
import type { Outbox } from './outbox.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

/** Delivers through the SMTP server of `SMTP_URL`; the sender is that URL's user (or `from=`). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(smtpUrl: string) {
    this.transport = nodemailer.createTransport(smtpUrl);
    const url = new URL(smtpUrl);
    const user = decodeURIComponent(url.username);
    this.from =
      url.searchParams.get('from') ??
      (user.includes('@') ? user : `BLRMS <noreply@${url.hostname}>`);
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...mail });
  }
}

/** Without `SMTP_URL`, mails go to the outbox folder and a log line says where (never the text). */
export class OutboxMailer implements Mailer {
  constructor(
    private readonly outbox: Outbox,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {}

  async send(mail: Mail): Promise<void> {
    const file = await this.outbox.write({
      channel: 'mail',
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      createTime: this.clock(),
    });
    this.log.info({ file }, 'mail written to the outbox (SMTP_URL is not set)');
  }
}
