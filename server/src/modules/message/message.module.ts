import path from 'node:path';
import { OutboxMailer, SmtpMailer, type Mailer } from '../../platform/mail/mail.js';
import { Outbox } from '../../platform/mail/outbox.js';
import type { Platform, ServerModule } from '../../platform/module.js';
import { OutboxSmsProvider } from '../../platform/sms/sms.js';
import type { AnnouncementService } from '../announcement/announcement.service.js';
import { MessageDelivery } from './message-delivery.service.js';
import { messageMenu } from './message.menu.js';
import './message.messages.js';
import { MessageQueueRepository } from './message-queue.repository.js';
import { MessageTemplateRepository } from './message-template.repository.js';
import { MessageTemplateService } from './message-template.service.js';
import { MessageRepository } from './message.repository.js';
import { messageRoutes } from './message.routes.js';
import { MessageService } from './message.service.js';
import { WebhookRepository } from './webhook.repository.js';
import { WebhookService } from './webhook.service.js';

/**
 * The message center: templates, the four channels, the delivery job and its history, webhook
 * endpoints. Other modules send through `messages.sendTemplate`; the account module registers
 * its SMS provider setting with `messageDelivery.useSmsProvider`.
 */
export function messageModule(
  { config, db, clock, log, permissions }: Platform,
  deps: { announcements: AnnouncementService },
) {
  const outbox = new Outbox(path.join(config.dataDir, 'outbox'));
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl)
    : new OutboxMailer(outbox, log, clock);
  const outboxSms = new OutboxSmsProvider(outbox, log, clock);
  const webhookRepository = new WebhookRepository(db);
  const templateRepository = new MessageTemplateRepository(db);
  const messageDelivery = new MessageDelivery(
    new MessageQueueRepository(db),
    webhookRepository,
    { announcements: deps.announcements, mailer, sms: () => Promise.resolve(outboxSms) },
    clock,
    log,
  );
  const messages = new MessageService(
    new MessageRepository(db),
    templateRepository,
    webhookRepository,
    messageDelivery,
    clock,
    log,
  );
  const templates = new MessageTemplateService(templateRepository, messages, clock);
  const webhooks = new WebhookService(
    webhookRepository,
    messages,
    messageDelivery,
    permissions,
    clock,
  );
  const module: ServerModule = {
    name: 'message',
    routes: [messageRoutes(templates, messages, webhooks)],
    menu: messageMenu,
    jobs: messageDelivery.scheduledJobs(),
    start: () => templates.ensureBuiltIns(),
    close: () => messages.close(),
  };
  return { messages, messageDelivery, module };
}
