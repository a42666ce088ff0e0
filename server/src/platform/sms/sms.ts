import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import { AppError } from '../http/app-error.js';
import type { Outbox } from '../mail/outbox.js';

export interface SmsMessage {
  phone: string;
  code: string;
  text: string;
}

/** Sends verification texts. Which provider is used is a platform setting (see SmsSettingsService). */
export interface SmsProvider {
  send(message: SmsMessage): Promise<void>;
}

/** The default: a log line (without the code) and the full text in the outbox folder. */
export class OutboxSmsProvider implements SmsProvider {
  constructor(
    private readonly outbox: Outbox,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const file = await this.outbox.write({
      channel: 'sms',
      to: message.phone,
      subject: null,
      text: message.text,
      createTime: this.clock(),
    });
    this.log.info({ file }, 'SMS written to the outbox (log provider)');
  }
}

const GATEWAY_TIMEOUT_MS = 5_000;

/**
 * Posts `{ phone, code, text }` as JSON to a gateway (an SMS vendor's API or an adapter in front
 * of one). Any non-2xx answer or a timeout is a 503 for the caller; the code is not revealed.
 */
export class HttpSmsProvider implements SmsProvider {
  constructor(
    private readonly url: string,
    private readonly authorization: string | null,
    private readonly log: FastifyBaseLogger,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.authorization) headers.authorization = this.authorization;
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`SMS gateway answered ${res.status}`);
    } catch (error) {
      this.log.error({ err: error }, 'SMS gateway failed');
      throw new AppError('smsUnavailable', 503);
    }
  }
}
