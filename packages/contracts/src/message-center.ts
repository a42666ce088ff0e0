import { z } from 'zod';
import { ZId, ZPageQuery, ZTimestamp, pageOf } from './common.js';

/**
 * The message center (issue 18): templates with `{{variables}}`, the messages sent from them
 * through four channels, their delivery history, and the company's webhook endpoints.
 */

/** `system` the bell's system messages, `email` SMTP or the outbox, `sms` the gateway or the outbox. */
export const MESSAGE_CHANNELS = ['system', 'email', 'sms', 'webhook'] as const;
export const ZMessageChannel = z.enum(MESSAGE_CHANNELS);
export type TMessageChannel = z.infer<typeof ZMessageChannel>;

export const MESSAGE_STATUSES = ['queued', 'sent', 'failed'] as const;
export const ZMessageStatus = z.enum(MESSAGE_STATUSES);
export type TMessageStatus = z.infer<typeof ZMessageStatus>;

/** A variable in a subject or content: `{{deviceName}}` (spaces inside the braces allowed). */
export const MESSAGE_VARIABLE = /\{\{\s*([A-Za-z_][A-Za-z0-9_]{0,63})\s*\}\}/g;

/** The variables a text names, in order of first appearance. */
export function messageVariables(text: string): string[] {
  return [...new Set([...text.matchAll(MESSAGE_VARIABLE)].map((m) => m[1]!))];
}

/** Headers of a webhook delivery; the signature is `sha256=<hex HMAC-SHA256 of "timestamp.body">`. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-blrms-signature';
export const WEBHOOK_TIMESTAMP_HEADER = 'x-blrms-timestamp';
export const WEBHOOK_EVENT_HEADER = 'x-blrms-event';

export const MESSAGE_CONTENT_MAX = 4000;
export const MESSAGE_SUBJECT_MAX = 200;
export const MESSAGE_TEST_DATA_KEYS_MAX = 50;

const ZTemplateCode = z
  .string()
  .trim()
  .regex(
    /^[a-z][a-z0-9_]{1,63}$/,
    'must be 2–64 lowercase letters, digits or underscores, starting with a letter',
  );

const ZVarValue = z.union([z.string().max(1000), z.number()]);

/** Sample values of the variables: the preview and "send a test" use them, saving checks names. */
export const ZMessageTestData = z
  .record(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'is not a variable name'), ZVarValue)
  .refine((data) => Object.keys(data).length <= MESSAGE_TEST_DATA_KEYS_MAX, {
    message: `must have at most ${MESSAGE_TEST_DATA_KEYS_MAX} variables`,
  });
export type TMessageTestData = z.infer<typeof ZMessageTestData>;

const ZSubject = z.string().trim().max(MESSAGE_SUBJECT_MAX);
const ZContent = z.string().trim().min(1, 'must not be empty').max(MESSAGE_CONTENT_MAX);

const ZTemplateTexts = z.object({
  channel: ZMessageChannel,
  subject: ZSubject.default(''),
  subjectEn: ZSubject.default(''),
  content: ZContent,
  contentEn: ZContent,
  testData: ZMessageTestData.default({}),
});

export const ZMessageTemplateInput = ZTemplateTexts.extend({
  code: ZTemplateCode,
  name: z.string().trim().min(1, 'must not be empty').max(64),
  enabled: z.boolean().default(true),
}).strict();
export type TMessageTemplateInput = z.infer<typeof ZMessageTemplateInput>;
export type TMessageTemplateInputIn = z.input<typeof ZMessageTemplateInput>;

export const ZMessageTemplateEdit = ZMessageTemplateInput.extend({ id: ZId }).strict();
export type TMessageTemplateEdit = z.infer<typeof ZMessageTemplateEdit>;

export const ZMessageTemplate = z.object({
  id: ZId,
  code: z.string(),
  name: z.string(),
  channel: ZMessageChannel,
  subject: z.string(),
  subjectEn: z.string(),
  content: z.string(),
  contentEn: z.string(),
  testData: z.record(z.string(), ZVarValue),
  enabled: z.boolean(),
  /** The platform's own template (its code and channel are fixed, it cannot be deleted). */
  builtIn: z.boolean(),
  /** A platform template this company uses as is; saving a copy overrides it for the company. */
  inherited: z.boolean(),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TMessageTemplate = z.infer<typeof ZMessageTemplate>;

export const MESSAGE_TEMPLATE_SORT_COLUMNS = ['code', 'name', 'createTime'] as const;
export const ZMessageTemplateQuery = ZPageQuery.extend({
  code: z.string().trim().max(64).optional(),
  name: z.string().trim().max(64).optional(),
  channel: ZMessageChannel.optional(),
  column: z.enum(MESSAGE_TEMPLATE_SORT_COLUMNS).default('code'),
  order: z.enum(['asc', 'desc']).default('asc'),
}).strict();
export type TMessageTemplateQuery = z.infer<typeof ZMessageTemplateQuery>;
export const ZMessageTemplatePage = pageOf(ZMessageTemplate);
export type TMessageTemplatePage = z.infer<typeof ZMessageTemplatePage>;

/** What the form previews: its texts rendered with its test data, in both languages. */
export const ZMessageTemplatePreviewRequest = ZTemplateTexts.strict();
export type TMessageTemplatePreviewRequest = z.input<typeof ZMessageTemplatePreviewRequest>;
export const ZMessageTemplatePreview = z.object({
  subject: z.string(),
  content: z.string(),
  subjectEn: z.string(),
  contentEn: z.string(),
  /** Variables the texts name that the test data lacks (saving refuses them). */
  missing: z.array(z.string()),
});
export type TMessageTemplatePreview = z.infer<typeof ZMessageTemplatePreview>;

/**
 * "Send a test": the template with its test data to one user of the company (system, email, SMS),
 * or to an address typed in (email, SMS); webhook templates go to the company's endpoints.
 */
export const ZMessageTestSend = z
  .object({
    id: ZId,
    userId: ZId.optional(),
    address: z.string().trim().min(1).max(254).optional(),
    lang: z.enum(['zh-CN', 'en-US']).default('zh-CN'),
  })
  .strict();
export type TMessageTestSend = z.input<typeof ZMessageTestSend>;
export const ZMessageQueued = z.object({ ids: z.array(ZId) });
export type TMessageQueued = z.infer<typeof ZMessageQueued>;

export const ZMessage = z.object({
  id: ZId,
  templateCode: z.string().nullable(),
  channel: ZMessageChannel,
  /** The user's name, email address, phone number or webhook URL. */
  receiver: z.string(),
  title: z.string(),
  content: z.string(),
  status: ZMessageStatus,
  attempts: z.number().int(),
  nextAttemptTime: ZTimestamp.nullable(),
  lastError: z.string().nullable(),
  createTime: ZTimestamp,
  sendTime: ZTimestamp.nullable(),
  createBy: z.string().nullable(),
});
export type TMessage = z.infer<typeof ZMessage>;

export const MESSAGE_SORT_COLUMNS = ['createTime', 'sendTime'] as const;
export const ZMessageQuery = ZPageQuery.extend({
  channel: ZMessageChannel.optional(),
  status: ZMessageStatus.optional(),
  templateCode: z.string().trim().max(64).optional(),
  receiver: z.string().trim().max(254).optional(),
  begin: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  end: z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' }).optional(),
  column: z.enum(MESSAGE_SORT_COLUMNS).default('createTime'),
}).strict();
export type TMessageQuery = z.infer<typeof ZMessageQuery>;
export const ZMessagePage = pageOf(ZMessage);
export type TMessagePage = z.infer<typeof ZMessagePage>;

export const ZMessageResend = z.object({ id: ZId }).strict();

const ZWebhookUrl = z
  .string()
  .trim()
  .max(500)
  .pipe(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }));

export const ZWebhookInput = z
  .object({
    name: z.string().trim().min(1, 'must not be empty').max(64),
    url: ZWebhookUrl,
    enabled: z.boolean().default(true),
  })
  .strict();
export type TWebhookInput = z.input<typeof ZWebhookInput>;
export const ZWebhookEdit = ZWebhookInput.extend({ id: ZId }).strict();
export type TWebhookEdit = z.input<typeof ZWebhookEdit>;

export const ZWebhook = z.object({
  id: ZId,
  name: z.string(),
  url: z.string(),
  enabled: z.boolean(),
  /** The secret's first characters, to tell endpoints apart; the secret is shown only once. */
  secretHint: z.string(),
  createTime: ZTimestamp,
  updateTime: ZTimestamp.nullable(),
});
export type TWebhook = z.infer<typeof ZWebhook>;
export const ZWebhookList = z.array(ZWebhook);

/** Adding an endpoint or rotating its secret: the secret, this once. */
export const ZWebhookWithSecret = z.object({ webhook: ZWebhook, secret: z.string() });
export type TWebhookWithSecret = z.infer<typeof ZWebhookWithSecret>;

/** Platform setting: whether webhooks may reach private networks and plain http. */
export const ZWebhookNetwork = z.object({ allowPrivateNetworks: z.boolean() }).strict();
export type TWebhookNetwork = z.infer<typeof ZWebhookNetwork>;

/** The JSON body of every webhook delivery. */
export const ZWebhookPayload = z.object({
  id: ZId.describe('The message id: the same on every retry, so receivers can drop duplicates'),
  event: z.string().describe('The template code, or `webhook_test`'),
  companyId: ZId,
  title: z.string(),
  content: z.string(),
  vars: z.record(z.string(), ZVarValue),
  createTime: ZTimestamp,
});
export type TWebhookPayload = z.infer<typeof ZWebhookPayload>;
