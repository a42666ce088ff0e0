import { randomBytes } from 'node:crypto';
import type { TMessage, TWebhook, TWebhookNetwork, TWebhookWithSecret } from '@blrms/contracts';
import type { ZWebhookEdit, ZWebhookInput } from '@blrms/contracts';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { AppError, forbidden, notFound } from '../../platform/http/app-error.js';
import type { Lang } from '../../platform/http/i18n.js';
import { message } from '../../platform/http/messages.js';
import type { MessageDelivery } from './message-delivery.service.js';
import type { MessageService } from './message.service.js';
import { refusedUrl } from './webhook-address.rules.js';
import type { WebhookRepository, WebhookRow } from './webhook.repository.js';

/** Endpoints one company may hold. */
const WEBHOOKS_MAX = 20;

type WebhookInput = ReturnType<typeof ZWebhookInput.parse>;
type WebhookEdit = ReturnType<typeof ZWebhookEdit.parse>;

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

function toWebhook(row: WebhookRow): TWebhook {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    enabled: row.enabled === 1,
    secretHint: `${row.secret.slice(0, 6)}…`,
    createTime: new Date(row.create_time).toISOString(),
    updateTime: iso(row.update_time),
  };
}

/** `whsec_` and 32 random bytes (base64url): what the receiver keys its HMAC with. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * A company's webhook endpoints. The signing secret is made by the server and shown once, when
 * the endpoint is added or its secret rotated. It is kept in the clear, like the device token keys
 * and the EMQX hook secret: the server must sign with it, and there is no secret besides the
 * database to encrypt it with (docs/architecture.md).
 */
export class WebhookService {
  constructor(
    private readonly repository: WebhookRepository,
    private readonly messages: MessageService,
    private readonly delivery: MessageDelivery,
    private readonly permissions: PermissionService,
    private readonly clock: Clock,
  ) {}

  async list(scope: Scope): Promise<TWebhook[]> {
    return (await this.repository.listOf(scope.companyId)).map(toWebhook);
  }

  async add(scope: Scope, input: WebhookInput): Promise<TWebhookWithSecret> {
    await this.checkUrl(input.url);
    if ((await this.repository.count(scope.companyId)) >= WEBHOOKS_MAX) {
      throw new AppError('messageLimit', 409, { max: WEBHOOKS_MAX });
    }
    const row: WebhookRow = {
      id: newId(),
      company_id: scope.companyId,
      name: input.name,
      url: input.url,
      secret: newSecret(),
      enabled: input.enabled ? 1 : 0,
      create_by: scope.username,
      create_time: this.clock(),
      update_time: null,
    };
    await this.repository.insert(scope.companyId, row);
    return { webhook: toWebhook(row), secret: row.secret };
  }

  async edit(scope: Scope, input: WebhookEdit): Promise<TWebhook> {
    const existing = await this.find(scope, input.id);
    await this.checkUrl(input.url);
    const changes = {
      name: input.name,
      url: input.url,
      enabled: input.enabled ? 1 : 0,
      update_time: this.clock(),
    };
    await this.repository.update(scope.companyId, input.id, changes);
    return toWebhook({ ...existing, ...changes });
  }

  async delete(scope: Scope, id: string): Promise<void> {
    if (!(await this.repository.delete(scope.companyId, id))) {
      throw notFound('messageWebhookNotFound');
    }
  }

  /** A new secret, shown this once; deliveries from now on are signed with it. */
  async rotateSecret(scope: Scope, id: string): Promise<TWebhookWithSecret> {
    const existing = await this.find(scope, id);
    const changes = { secret: newSecret(), update_time: this.clock() };
    await this.repository.update(scope.companyId, id, changes);
    const row = { ...existing, ...changes };
    return { webhook: toWebhook(row), secret: row.secret };
  }

  /** Sends a test event to one endpoint now and answers with its history row. */
  async test(scope: Scope, id: string, lang: Lang): Promise<TMessage> {
    const endpoint = await this.find(scope, id);
    const row = await this.messages.enqueueWebhook(
      scope.companyId,
      endpoint,
      {
        event: 'webhook_test',
        title: message(lang, 'messageWebhookTestTitle'),
        content: message(lang, 'messageWebhookTestContent'),
        vars: {},
      },
      scope.username,
    );
    return this.messages.get(scope, row.id);
  }

  async network(scope: Scope): Promise<TWebhookNetwork> {
    await this.requirePlatformAdmin(scope);
    return { allowPrivateNetworks: await this.delivery.allowPrivate() };
  }

  async setNetwork(scope: Scope, input: TWebhookNetwork): Promise<TWebhookNetwork> {
    await this.requirePlatformAdmin(scope);
    await this.repository.writeNetwork(JSON.stringify(input), this.clock());
    return this.network(scope);
  }

  private async find(scope: Scope, id: string): Promise<WebhookRow> {
    const row = await this.repository.find(scope.companyId, id);
    if (!row) throw notFound('messageWebhookNotFound');
    return row;
  }

  private async checkUrl(url: string): Promise<void> {
    const refused = refusedUrl(url, await this.delivery.allowPrivate());
    if (refused === 'scheme') throw new AppError('messageWebhookUrlScheme', 400);
    if (refused === 'private') throw new AppError('messageWebhookUrlPrivate', 400);
    if (refused === 'credentials') throw new AppError('messageWebhookUrlCredentials', 400);
  }

  /** Where webhooks may go is platform-wide: platform administrators only. */
  private async requirePlatformAdmin(scope: Scope) {
    const grants = await this.permissions.grantsIn(scope);
    if (!grants.platformAdmin) throw forbidden('adminPlatformOnly');
  }
}
