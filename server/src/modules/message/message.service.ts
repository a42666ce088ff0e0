import type {
  TMessage,
  TMessageChannel,
  TMessagePage,
  TMessageQuery,
  TMessageStatus,
} from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { AppError, notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { pageResult } from '../../platform/http/paging.js';
import type {
  MessageDelivery,
  SmsExtra,
  SystemExtra,
  WebhookExtra,
} from './message-delivery.service.js';
import type { TemplateRow } from './message-template.repository.js';
import type { MessageTemplateRepository } from './message-template.repository.js';
import type { Contact, MessageRepository, MessageRow } from './message.repository.js';
import { render, type Vars } from './message-render.rules.js';
import type { WebhookRepository } from './webhook.repository.js';

/** What other modules give to send the platform's messages (and the test sends of the screen). */
export interface SendTemplateInput {
  /** The company whose template overrides and users apply; null for the platform's own. */
  companyId: string | null;
  templateCode: string;
  /**
   * Users of the company by id (and, optionally, by username); `addresses` are email addresses or
   * phone numbers for the email and SMS channels (someone who is not a user yet).
   */
  receivers: { userIds: string[]; usernames?: string[]; addresses?: string[] };
  vars: Record<string, string | number>;
  createBy?: string;
  /** Only this channel of the code's templates. */
  channel?: TMessageChannel;
  /** Only these channels of the code's templates (with `channel`, both must allow it). */
  channels?: readonly TMessageChannel[];
  /** The receivers' language; users have no language of their own yet, so zh-CN by default. */
  lang?: Lang;
  /**
   * Attempt every message before returning and throw the first failure: the sender answers its
   * request with it (a verification code), so a message that failed is not tried again.
   */
  now?: boolean;
  /** A message not sent by then is failed instead (a verification code expires). */
  expiresAt?: number;
  /** The bell's priority and link for system messages. */
  priority?: 'L' | 'M' | 'H';
  link?: { openPage: string; busId?: string | null };
}

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE = /^\+?[0-9]{5,20}$/;
const CONTENT_MAX = 10_000;

function toMessage(row: MessageRow): TMessage {
  return {
    id: row.id,
    templateCode: row.template_code,
    channel: row.channel as TMessageChannel,
    receiver: row.receiver,
    title: row.title,
    content: row.content,
    status: row.status as TMessageStatus,
    attempts: row.attempts,
    nextAttemptTime: row.status === 'queued' ? iso(row.next_attempt_time) : null,
    lastError: row.last_error,
    createTime: new Date(row.create_time).toISOString(),
    sendTime: iso(row.send_time),
    createBy: row.create_by,
  };
}

export function validAddress(channel: TMessageChannel, address: string): boolean {
  if (channel === 'email') return EMAIL.test(address) && address.length <= 254;
  if (channel === 'sms') return PHONE.test(address);
  return false;
}

/**
 * Sending through templates: the row of every message (one per receiver and channel) is written
 * before anything is sent, so nothing acknowledged is lost; the delivery service sends it now or
 * on the job's schedule. The history screen and manual resends.
 */
export class MessageService {
  /** First attempts started in the background, awaited at shutdown. */
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(
    private readonly repository: MessageRepository,
    private readonly templates: MessageTemplateRepository,
    private readonly webhooks: WebhookRepository,
    private readonly delivery: MessageDelivery,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Sends the template `templateCode` of the company (its own, else the platform's) through every
   * enabled channel the code has a template for, to each receiver, in the receivers' language.
   */
  async sendTemplate(input: SendTemplateInput): Promise<void> {
    const companyId = input.companyId ?? PLATFORM_COMPANY_ID;
    const chosen = (await this.effectiveTemplates(companyId, input.templateCode)).filter(
      (t) =>
        t.enabled === 1 &&
        (!input.channel || t.channel === input.channel) &&
        (!input.channels || input.channels.includes(t.channel as TMessageChannel)),
    );
    if (chosen.length === 0) {
      this.log.warn({ templateCode: input.templateCode, companyId }, 'no enabled message template');
      return;
    }
    const rows: Omit<MessageRow, 'company_id'>[] = [];
    for (const template of chosen) rows.push(...(await this.rowsFor(companyId, template, input)));
    await this.repository.insert(companyId, rows);
    await this.firstAttempts(rows, input.now === true);
  }

  /** The template with the given code and each channel: the company's own, else the platform's. */
  async effectiveTemplates(companyId: string, code: string): Promise<TemplateRow[]> {
    const own = await this.templates.byCode(companyId, code);
    if (companyId === PLATFORM_COMPANY_ID) return own;
    const platform = await this.templates.byCode(PLATFORM_COMPANY_ID, code);
    const channels = new Set(own.map((t) => t.channel));
    return [...own, ...platform.filter((t) => !channels.has(t.channel))];
  }

  /** A test of one template to one receiver: the screen's "send a test". */
  async sendTest(
    companyId: string,
    template: TemplateRow,
    receivers: SendTemplateInput['receivers'],
    lang: Lang,
    createBy: string,
  ): Promise<string[]> {
    const vars = JSON.parse(template.test_data) as Vars;
    const rows = await this.rowsFor(companyId, template, {
      companyId,
      templateCode: template.code,
      receivers,
      vars,
      lang,
      createBy,
    });
    await this.repository.insert(companyId, rows);
    await this.firstAttempts(rows, false);
    return rows.map((r) => r.id);
  }

  /** Enqueues one webhook message to one endpoint (the webhook screen's test). */
  async enqueueWebhook(
    companyId: string,
    endpoint: { id: string; url: string },
    message: { event: string; title: string; content: string; vars: Vars },
    createBy: string,
  ): Promise<MessageRow> {
    const row = this.row({
      template_code: null,
      channel: 'webhook',
      receiver_id: endpoint.id,
      receiver: endpoint.url,
      title: message.title,
      content: message.content,
      extra: JSON.stringify({ event: message.event, vars: message.vars } satisfies WebhookExtra),
      create_by: createBy,
    });
    await this.repository.insert(companyId, [row]);
    await this.delivery.attemptNow([row.id]);
    const stored = await this.repository.find(companyId, row.id);
    if (!stored) throw notFound('messageNotFound');
    return stored;
  }

  /** Active users of the company among `ids`. */
  contactsOf(companyId: string, ids: string[]): Promise<Contact[]> {
    return this.repository.contacts(companyId, ids, []);
  }

  async hasWebhooks(companyId: string): Promise<boolean> {
    return (await this.webhooks.listOf(companyId, true)).length > 0;
  }

  async list(scope: Scope, query: TMessageQuery): Promise<TMessagePage> {
    const { records, total } = await this.repository.page(scope.companyId, query);
    return pageResult(records.map(toMessage), total, query);
  }

  async get(scope: Scope, id: string): Promise<TMessage> {
    const row = await this.repository.find(scope.companyId, id);
    if (!row) throw notFound('messageNotFound');
    return toMessage(row);
  }

  /** A failed message goes back to the queue, due now, and is attempted at once. */
  async resend(scope: Scope, id: string): Promise<TMessage> {
    const row = await this.repository.find(scope.companyId, id);
    if (!row) throw notFound('messageNotFound');
    if (!(await this.repository.requeue(scope.companyId, id, this.clock()))) {
      throw new AppError('messageNotFailed', 409);
    }
    await this.delivery.attemptNow([id]);
    return this.get(scope, id);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /**
   * System messages are written to the bell at once (local and quick); the other channels too
   * when the caller waits (`now`), else in the background. The job retries what fails.
   */
  private async firstAttempts(rows: Omit<MessageRow, 'company_id'>[], now: boolean) {
    const due = rows.filter((r) => r.status === 'queued');
    const inline = due.filter((r) => now || r.channel === 'system').map((r) => r.id);
    const later = due.filter((r) => !now && r.channel !== 'system').map((r) => r.id);
    if (later.length > 0) {
      const work = this.delivery
        .attemptNow(later)
        .catch((error: unknown) => this.log.error({ err: error }, 'message delivery failed'));
      this.inFlight.add(work);
      void work.finally(() => this.inFlight.delete(work));
    }
    const failures = await this.delivery.attemptNow(inline, now);
    if (now && failures.size > 0) throw [...failures.values()][0];
  }

  private row(
    fields: Pick<
      MessageRow,
      | 'template_code'
      | 'channel'
      | 'receiver_id'
      | 'receiver'
      | 'title'
      | 'content'
      | 'extra'
      | 'create_by'
    > &
      Partial<Pick<MessageRow, 'status' | 'last_error' | 'expire_time'>>,
  ): Omit<MessageRow, 'company_id'> {
    const now = this.clock();
    const status = fields.status ?? 'queued';
    return {
      id: newId(),
      status,
      attempts: 0,
      next_attempt_time: status === 'queued' ? now : null,
      expire_time: fields.expire_time ?? null,
      last_error: fields.last_error ?? null,
      create_time: now,
      send_time: null,
      ...fields,
      content: fields.content.slice(0, CONTENT_MAX),
      title: fields.title.slice(0, 200),
      receiver: fields.receiver.slice(0, 500),
    };
  }

  private async rowsFor(
    companyId: string,
    template: TemplateRow,
    input: SendTemplateInput,
  ): Promise<Omit<MessageRow, 'company_id'>[]> {
    const channel = template.channel as TMessageChannel;
    const lang = input.lang ?? 'zh-CN';
    const zh = render(
      channel,
      { subject: template.subject, content: template.content },
      input.vars,
    );
    const en = render(
      channel,
      { subject: template.subject_en, content: template.content_en },
      input.vars,
    );
    const text = lang === 'en-US' ? en : zh;
    const title = text.title || text.content.replace(/<[^>]*>/g, '').slice(0, 100);
    const common = {
      template_code: template.code,
      title,
      content: text.content,
      create_by: input.createBy ?? null,
      expire_time: input.expiresAt ?? null,
    };
    const { userIds, usernames = [], addresses = [] } = input.receivers;
    const contacts = await this.repository.contacts(
      companyId,
      [...new Set(userIds)],
      [...new Set(usernames)],
    );
    switch (channel) {
      case 'system': {
        const extra: SystemExtra = {
          texts: { 'zh-CN': zh, 'en-US': en },
          priority: input.priority ?? 'L',
          openType: input.link ? 'url' : null,
          openPage: input.link?.openPage ?? null,
          busId: input.link?.busId ?? null,
        };
        return contacts.map((user) =>
          this.row({
            ...common,
            channel,
            receiver_id: user.id,
            receiver: user.username,
            extra: JSON.stringify(extra),
          }),
        );
      }
      case 'email':
      case 'sms': {
        const extra =
          channel === 'sms'
            ? JSON.stringify({ code: String(input.vars.code ?? '') } satisfies SmsExtra)
            : null;
        const toUsers = contacts.map((user) => this.toUser(channel, user, { ...common, extra }));
        const toAddresses = [...new Set(addresses)].map((address) =>
          this.row({
            ...common,
            channel,
            receiver_id: null,
            receiver: address,
            extra,
            ...(validAddress(channel, address)
              ? {}
              : { status: 'failed', last_error: 'not a valid address' }),
          }),
        );
        return [...toUsers, ...toAddresses];
      }
      case 'webhook': {
        const extra = JSON.stringify({
          event: template.code,
          vars: input.vars,
        } satisfies WebhookExtra);
        const endpoints = await this.webhooks.listOf(companyId, true);
        return endpoints.map((endpoint) =>
          this.row({ ...common, channel, receiver_id: endpoint.id, receiver: endpoint.url, extra }),
        );
      }
    }
  }

  /** A user without the address a channel needs still gets a row: failed, saying why. */
  private toUser(
    channel: 'email' | 'sms',
    user: Contact,
    common: Pick<
      MessageRow,
      'template_code' | 'title' | 'content' | 'create_by' | 'extra' | 'expire_time'
    >,
  ) {
    const address = channel === 'email' ? user.email : user.phone;
    return this.row({
      ...common,
      channel,
      receiver_id: user.id,
      receiver: address ?? user.username,
      ...(address
        ? {}
        : {
            status: 'failed',
            last_error: `${user.username} has no ${channel === 'email' ? 'email address' : 'phone number'}`,
          }),
    });
  }
}
