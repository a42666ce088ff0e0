import { ZWebhookNetwork, type TMessageChannel, type TWebhookPayload } from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Mailer } from '../../platform/mail/mail.js';
import type { JobSpec } from '../../platform/scheduler/scheduler.js';
import type { SmsProvider } from '../../platform/sms/sms.js';
import type { AnnouncementService } from '../announcement/announcement.service.js';
import type { RenderedTexts } from '../announcement/system-messages.rules.js';
import type { MessageQueueRepository, Outcome, QueuedRow } from './message-queue.repository.js';
import type { Vars } from './message-render.rules.js';
import { DeliveryError, postWebhook } from './webhook-delivery.service.js';
import type { WebhookRepository } from './webhook.repository.js';

/** What a row's `extra` holds, by channel. */
export interface SystemExtra {
  texts: RenderedTexts;
  priority: 'L' | 'M' | 'H';
  openType: 'url' | 'component' | null;
  openPage: string | null;
  busId: string | null;
}
export interface SmsExtra {
  /** The `{{code}}` variable, which the SMS gateway receives as a field of its own. */
  code: string;
}
export interface WebhookExtra {
  event: string;
  vars: Vars;
}

/** Waits before the 2nd, 3rd, 4th and 5th attempt; the 5th failure is final. */
export const RETRY_DELAYS_MS = [30_000, 2 * 60_000, 10 * 60_000, 60 * 60_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** How long a claimed attempt may take before another node may try the message again. */
const CLAIM_LEASE_MS = 2 * 60_000;
const BATCH = 100;
const PARALLEL = 4;
const ERROR_MAX = 500;
export const DELIVERY_JOB = 'message.deliver';
const DELIVERY_EVERY_MS = 2000;

export type SmsSource = () => Promise<SmsProvider>;

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, ERROR_MAX);
}

/**
 * Sends queued messages through their channel: the delivery job (on one node at a time) takes
 * the due ones, and senders may attempt rows they just wrote at once. Every attempt first claims
 * its row (one conditional update), so a message is never sent twice at the same time; a failed
 * attempt is tried again after 30 s, 2 min, 10 min and 1 h, then the message is `failed` with
 * the last error, until someone resends it.
 */
export class MessageDelivery {
  private smsSource: SmsSource;

  constructor(
    private readonly queue: MessageQueueRepository,
    private readonly webhooks: WebhookRepository,
    private readonly channels: {
      announcements: Pick<AnnouncementService, 'sendRenderedMessage'>;
      mailer: Mailer;
      sms: SmsSource;
    },
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {
    this.smsSource = channels.sms;
  }

  /** The account module's SMS settings decide the provider (registered after it is built). */
  useSmsProvider(source: SmsSource): void {
    this.smsSource = source;
  }

  scheduledJobs(): JobSpec[] {
    return [
      {
        name: DELIVERY_JOB,
        everyMs: DELIVERY_EVERY_MS,
        scope: 'cluster',
        run: (signal) => this.deliverDue(signal),
      },
    ];
  }

  /** The job's run: due messages in batches until none is left or the scheduler closes. */
  async deliverDue(signal?: AbortSignal): Promise<void> {
    for (let round = 0; round < 10 && !signal?.aborted; round++) {
      const rows = await this.queue.due(this.clock(), BATCH);
      await this.attemptAll(rows);
      if (rows.length < BATCH) return;
    }
  }

  /**
   * First attempts of rows just written; resolves with the error of each row whose attempt
   * failed. Such a row stays queued for the job's retries, unless `final`: the sender reports
   * the failure to its requester, who asks again (a verification code), so it is failed at once.
   */
  async attemptNow(ids: string[], final = false): Promise<Map<string, unknown>> {
    return this.attemptAll(await this.queue.byIds(ids), final);
  }

  private async attemptAll(rows: QueuedRow[], final = false): Promise<Map<string, unknown>> {
    const failures = new Map<string, unknown>();
    for (let i = 0; i < rows.length; i += PARALLEL) {
      await Promise.all(
        rows.slice(i, i + PARALLEL).map(async (row) => {
          const error = await this.attempt(row, final);
          if (error !== undefined) failures.set(row.id, error);
        }),
      );
    }
    return failures;
  }

  /** One attempt of one row, if this node wins its claim; the error when it failed. */
  private async attempt(row: QueuedRow, finalAttempt: boolean): Promise<unknown> {
    const now = this.clock();
    if (row.status !== 'queued' || row.next_attempt_time === null) return undefined;
    if (!(await this.queue.claim(row.id, row.next_attempt_time, now + CLAIM_LEASE_MS))) {
      return undefined;
    }
    const attempts = row.attempts + 1;
    if (row.expire_time !== null && row.expire_time <= now) {
      await this.finish(row.id, {
        status: 'failed',
        next_attempt_time: null,
        last_error: 'expired before it could be sent',
        send_time: null,
      });
      return undefined;
    }
    try {
      await this.send(row);
      await this.finish(row.id, {
        status: 'sent',
        next_attempt_time: null,
        last_error: null,
        send_time: this.clock(),
      });
      return undefined;
    } catch (error) {
      const final =
        finalAttempt ||
        attempts >= MAX_ATTEMPTS ||
        (error instanceof DeliveryError && !error.retry);
      const delay = RETRY_DELAYS_MS[attempts - 1] ?? 0;
      await this.finish(row.id, {
        status: final ? 'failed' : 'queued',
        next_attempt_time: final ? null : this.clock() + delay,
        last_error: errorText(error),
        send_time: null,
      });
      this.log.warn(
        { messageId: row.id, channel: row.channel, attempts, final, err: errorText(error) },
        'message not delivered',
      );
      return error;
    }
  }

  private async finish(id: string, outcome: Outcome): Promise<void> {
    await this.queue.finish(id, outcome);
  }

  private async send(row: QueuedRow): Promise<void> {
    const channel = row.channel as TMessageChannel;
    const extra: unknown = row.extra ? JSON.parse(row.extra) : {};
    switch (channel) {
      case 'system': {
        const system = extra as SystemExtra;
        if (!row.receiver_id) throw new DeliveryError('no receiver', false);
        await this.channels.announcements.sendRenderedMessage({
          companyId: row.company_id,
          userIds: [row.receiver_id],
          code: row.template_code ?? 'message',
          texts: system.texts,
          priority: system.priority,
          openType: system.openType,
          openPage: system.openPage,
          busId: system.busId,
        });
        return;
      }
      case 'email':
        await this.channels.mailer.send({
          to: row.receiver,
          subject: row.title,
          text: row.content,
        });
        return;
      case 'sms': {
        const provider = await this.smsSource();
        await provider.send({
          phone: row.receiver,
          code: (extra as SmsExtra).code,
          text: row.content,
        });
        return;
      }
      case 'webhook':
        await this.sendWebhook(row, extra as WebhookExtra);
        return;
    }
  }

  private async sendWebhook(row: QueuedRow, extra: WebhookExtra): Promise<void> {
    const endpoint = row.receiver_id
      ? await this.webhooks.find(row.company_id, row.receiver_id)
      : undefined;
    if (!endpoint) throw new DeliveryError('the webhook endpoint was deleted', false);
    if (endpoint.enabled !== 1) throw new DeliveryError('the webhook endpoint is disabled', false);
    const payload: TWebhookPayload = {
      id: row.id,
      event: extra.event,
      companyId: row.company_id,
      title: row.title,
      content: row.content,
      vars: extra.vars,
      createTime: new Date(row.create_time).toISOString(),
    };
    await postWebhook({
      url: endpoint.url,
      body: JSON.stringify(payload),
      secret: endpoint.secret,
      event: extra.event,
      timestamp: Math.floor(this.clock() / 1000),
      allowPrivate: await this.allowPrivate(),
    });
  }

  async allowPrivate(): Promise<boolean> {
    const raw = await this.webhooks.readNetwork();
    if (!raw) return false;
    const parsed = ZWebhookNetwork.safeParse(JSON.parse(raw));
    return parsed.success && parsed.data.allowPrivateNetworks;
  }
}
