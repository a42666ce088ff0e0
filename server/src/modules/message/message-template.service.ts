import type {
  TMessageChannel,
  TMessageTemplate,
  TMessageTemplateEdit,
  TMessageTemplateInput,
  TMessageTemplatePage,
  TMessageTemplatePreview,
  TMessageTemplateQuery,
} from '@blrms/contracts';
import type { ZMessageTemplatePreviewRequest, ZMessageTestSend } from '@blrms/contracts';
import { PLATFORM_COMPANY_ID } from '../../db/seed/seed.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { AppError, notFound } from '../../platform/http/app-error.js';
import { pageResult } from '../../platform/http/paging.js';
import { BUILT_IN_TEMPLATES, isBuiltIn } from './builtin-templates.rules.js';
import { render, undeclaredVariables, type Vars } from './message-render.rules.js';
import type { MessageTemplateRepository, TemplateRow } from './message-template.repository.js';
import { validAddress, type MessageService } from './message.service.js';

/** Templates one company may hold; the platform's defaults are not counted. */
const TEMPLATES_MAX = 200;

type PreviewInput = ReturnType<typeof ZMessageTemplatePreviewRequest.parse>;
type TestSendInput = ReturnType<typeof ZMessageTestSend.parse>;

const iso = (time: number | null) => (time === null ? null : new Date(time).toISOString());

function toTemplate(row: TemplateRow, inherited: boolean): TMessageTemplate {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    channel: row.channel as TMessageChannel,
    subject: row.subject,
    subjectEn: row.subject_en,
    content: row.content,
    contentEn: row.content_en,
    testData: JSON.parse(row.test_data) as Vars,
    enabled: row.enabled === 1,
    builtIn: row.built_in === 1,
    inherited,
    createTime: new Date(row.create_time).toISOString(),
    updateTime: iso(row.update_time),
  };
}

const contains = (value: string, part: string | undefined) =>
  !part || value.toLowerCase().includes(part.toLowerCase());

/**
 * Message templates: a company's own and the platform's it inherits. A company edits only its
 * own; saving a template with the code and channel of a platform one overrides it for the company.
 */
export class MessageTemplateService {
  constructor(
    private readonly repository: MessageTemplateRepository,
    private readonly messages: MessageService,
    private readonly clock: Clock,
  ) {}

  /** Adds the platform's templates that are missing (a new release may ship new ones). */
  async ensureBuiltIns(): Promise<void> {
    const now = this.clock();
    await this.repository.insertMissing(
      PLATFORM_COMPANY_ID,
      BUILT_IN_TEMPLATES.map((t) => ({
        id: newId(),
        code: t.code,
        name: t.name,
        channel: t.channel,
        subject: t.subject,
        subject_en: t.subjectEn,
        content: t.content,
        content_en: t.contentEn,
        test_data: JSON.stringify(t.testData),
        enabled: 1,
        built_in: 1,
        create_by: null,
        create_time: now,
        update_time: null,
      })),
    );
  }

  async list(scope: Scope, q: TMessageTemplateQuery): Promise<TMessageTemplatePage> {
    const own = await this.repository.listOf(scope.companyId);
    const ownKeys = new Set(own.map((t) => `${t.code}|${t.channel}`));
    const inherited =
      scope.companyId === PLATFORM_COMPANY_ID
        ? []
        : (await this.repository.listOf(PLATFORM_COMPANY_ID)).filter(
            (t) => !ownKeys.has(`${t.code}|${t.channel}`),
          );
    const all = [
      ...own.map((row) => toTemplate(row, false)),
      ...inherited.map((row) => toTemplate(row, true)),
    ].filter(
      (t) =>
        contains(t.code, q.code) &&
        contains(t.name, q.name) &&
        (!q.channel || t.channel === q.channel),
    );
    const key = q.column;
    const sign = q.order === 'asc' ? 1 : -1;
    all.sort((a, b) => sign * a[key].localeCompare(b[key]) || a.channel.localeCompare(b.channel));
    const start = (q.pageNo - 1) * q.pageSize;
    return pageResult(all.slice(start, start + q.pageSize), all.length, q);
  }

  /** A template the company may read: its own, or one of the platform's. */
  async get(scope: Scope, id: string): Promise<TMessageTemplate> {
    const { row, inherited } = await this.readable(scope, id);
    return toTemplate(row, inherited);
  }

  async add(scope: Scope, input: TMessageTemplateInput): Promise<TMessageTemplate> {
    this.check(input);
    if (await this.repository.taken(scope.companyId, input.code, input.channel)) {
      throw new AppError('messageTemplateExists', 409);
    }
    if ((await this.repository.count(scope.companyId)) >= TEMPLATES_MAX) {
      throw new AppError('messageLimit', 409, { max: TEMPLATES_MAX });
    }
    const row: TemplateRow = {
      id: newId(),
      company_id: scope.companyId,
      ...this.fields(input),
      built_in: 0,
      create_by: scope.username,
      create_time: this.clock(),
      update_time: null,
    };
    await this.repository.insert(scope.companyId, row);
    return toTemplate(row, false);
  }

  async edit(scope: Scope, input: TMessageTemplateEdit): Promise<TMessageTemplate> {
    const existing = await this.repository.find(scope.companyId, input.id);
    if (!existing) throw notFound('messageTemplateNotFound');
    this.check(input);
    if (
      existing.built_in === 1 &&
      (existing.code !== input.code || existing.channel !== input.channel)
    ) {
      throw new AppError('messageTemplateBuiltIn', 409);
    }
    if (await this.repository.taken(scope.companyId, input.code, input.channel, input.id)) {
      throw new AppError('messageTemplateExists', 409);
    }
    const changes = { ...this.fields(input), update_time: this.clock() };
    await this.repository.update(scope.companyId, input.id, changes);
    return toTemplate({ ...existing, ...changes }, false);
  }

  async delete(scope: Scope, id: string): Promise<void> {
    const existing = await this.repository.find(scope.companyId, id);
    if (!existing) throw notFound('messageTemplateNotFound');
    if (
      existing.built_in === 1 ||
      (scope.companyId === PLATFORM_COMPANY_ID && isBuiltIn(existing.code, existing.channel))
    ) {
      throw new AppError('messageTemplateBuiltIn', 409);
    }
    await this.repository.delete(scope.companyId, id);
  }

  preview(input: PreviewInput): TMessageTemplatePreview {
    const zh = render(
      input.channel,
      { subject: input.subject, content: input.content },
      input.testData,
    );
    const en = render(
      input.channel,
      { subject: input.subjectEn, content: input.contentEn },
      input.testData,
    );
    return {
      subject: zh.title,
      content: zh.content,
      subjectEn: en.title,
      contentEn: en.content,
      missing: undeclaredVariables(
        [input.subject, input.subjectEn, input.content, input.contentEn],
        input.testData,
      ),
    };
  }

  /** "Send a test" with the template's test data, to a user of the company or an address. */
  async sendTest(scope: Scope, input: TestSendInput): Promise<string[]> {
    const { row } = await this.readable(scope, input.id);
    const channel = row.channel as TMessageChannel;
    if (input.address !== undefined) {
      if (channel === 'system' || channel === 'webhook') {
        throw new AppError('messageAddressNotForChannel', 400);
      }
      if (!validAddress(channel, input.address)) {
        throw new AppError('messageAddressInvalid', 400, { channel });
      }
    }
    const userIds = input.userId ? [input.userId] : [];
    if (channel !== 'webhook') {
      if (userIds.length === 0 && input.address === undefined) {
        throw new AppError('messageTestReceiverRequired', 400);
      }
      if (input.userId) {
        const [user] = await this.messages.contactsOf(scope.companyId, [input.userId]);
        if (!user) throw new AppError('messageUserNotFound', 400);
        if (channel === 'email' && !user.email) {
          throw new AppError('messageReceiverNoAddress', 400, { channel });
        }
        if (channel === 'sms' && !user.phone) {
          throw new AppError('messageReceiverNoAddress', 400, { channel });
        }
      }
    } else if (!(await this.messages.hasWebhooks(scope.companyId))) {
      throw new AppError('messageWebhookNone', 409);
    }
    return this.messages.sendTest(
      scope.companyId,
      row,
      { userIds, addresses: input.address === undefined ? [] : [input.address] },
      input.lang,
      scope.username,
    );
  }

  private async readable(scope: Scope, id: string) {
    const own = await this.repository.find(scope.companyId, id);
    if (own) return { row: own, inherited: false };
    const platform =
      scope.companyId === PLATFORM_COMPANY_ID
        ? undefined
        : await this.repository.find(PLATFORM_COMPANY_ID, id);
    if (!platform) throw notFound('messageTemplateNotFound');
    return { row: platform, inherited: true };
  }

  /** Every variable the texts use must have test data; email and system messages need subjects. */
  private check(input: TMessageTemplateInput) {
    const missing = undeclaredVariables(
      [input.subject, input.subjectEn, input.content, input.contentEn],
      input.testData,
    );
    if (missing.length > 0) {
      throw new AppError('messageTemplateUndeclared', 400, { names: missing.join(', ') });
    }
    if (
      (input.channel === 'email' || input.channel === 'system') &&
      (!input.subject || !input.subjectEn)
    ) {
      throw new AppError('messageTemplateSubjectRequired', 400);
    }
  }

  private fields(input: TMessageTemplateInput) {
    return {
      code: input.code,
      name: input.name,
      channel: input.channel,
      subject: input.subject,
      subject_en: input.subjectEn,
      content: input.content,
      content_en: input.contentEn,
      test_data: JSON.stringify(input.testData),
      enabled: input.enabled ? 1 : 0,
    };
  }
}
