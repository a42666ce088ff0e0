import {
  ZId,
  ZMessage,
  ZMessagePage,
  ZMessageQuery,
  ZMessageQueued,
  ZMessageResend,
  ZMessageTemplate,
  ZMessageTemplateEdit,
  ZMessageTemplateInput,
  ZMessageTemplatePage,
  ZMessageTemplatePreview,
  ZMessageTemplatePreviewRequest,
  ZMessageTemplateQuery,
  ZMessageTestSend,
  ZWebhook,
  ZWebhookEdit,
  ZWebhookInput,
  ZWebhookList,
  ZWebhookNetwork,
  ZWebhookWithSecret,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { MessageTemplateService } from './message-template.service.js';
import type { MessageService } from './message.service.js';
import type { WebhookService } from './webhook.service.js';

const tags = ['message'];
const ZIdQuery = z.object({ id: ZId, _t: z.string().optional() }).strict();
const ZIdBody = z.object({ id: ZId }).strict();
const TEMPLATE = '/sys/message/sysMessageTemplate';
const MESSAGE = '/sys/message/sysMessage';
const WEBHOOK = '/sys/message/webhook';

export function messageRoutes(
  templates: MessageTemplateService,
  messages: MessageService,
  webhooks: WebhookService,
): FastifyPluginAsyncZod {
  return async (app) => {
    // ------------------------------------------------------------------ templates
    app.get(
      `${TEMPLATE}/list`,
      {
        config: { permission: 'system:message:template:list' },
        schema: {
          tags,
          summary: "The company's templates and the platform's it inherits, paged",
          querystring: ZMessageTemplateQuery,
          response: responses(ZMessageTemplatePage),
        },
      },
      async (req) => ok(await templates.list(req.scope, req.query)),
    );
    app.get(
      `${TEMPLATE}/queryById`,
      {
        config: { permission: 'system:message:template:list' },
        schema: {
          tags,
          summary: 'One template',
          querystring: ZIdQuery,
          response: responses(ZMessageTemplate),
        },
      },
      async (req) => ok(await templates.get(req.scope, req.query.id)),
    );
    app.post(
      `${TEMPLATE}/add`,
      {
        config: { permission: 'system:message:template:add' },
        schema: {
          tags,
          summary: 'Add a template (the code and channel of a platform one override it)',
          body: ZMessageTemplateInput,
          response: responses(ZMessageTemplate),
        },
      },
      async (req) =>
        ok(await templates.add(req.scope, req.body), message(req.lang, 'messageSaved')),
    );
    app.put(
      `${TEMPLATE}/edit`,
      {
        config: { permission: 'system:message:template:edit' },
        schema: {
          tags,
          summary: "Edit one of the company's templates",
          body: ZMessageTemplateEdit,
          response: responses(ZMessageTemplate),
        },
      },
      async (req) =>
        ok(await templates.edit(req.scope, req.body), message(req.lang, 'messageSaved')),
    );
    app.delete(
      `${TEMPLATE}/delete`,
      {
        config: { permission: 'system:message:template:delete' },
        schema: {
          tags,
          summary: "Delete one of the company's templates",
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await templates.delete(req.scope, req.query.id);
        return ok(null, message(req.lang, 'messageDeleted'));
      },
    );
    app.post(
      `${TEMPLATE}/preview`,
      {
        config: { permission: 'system:message:template:list' },
        schema: {
          tags,
          summary: 'Texts rendered with the test data, in both languages, and undeclared variables',
          body: ZMessageTemplatePreviewRequest,
          response: responses(ZMessageTemplatePreview),
        },
      },
      async (req) => ok(templates.preview(req.body)),
    );
    app.post(
      `${TEMPLATE}/sendTest`,
      {
        config: { permission: 'system:message:template:test' },
        schema: {
          tags,
          summary: 'Send the template with its test data to a user or an address',
          body: ZMessageTestSend,
          response: responses(ZMessageQueued),
        },
      },
      async (req) =>
        ok(
          { ids: await templates.sendTest(req.scope, req.body) },
          message(req.lang, 'messageQueued'),
        ),
    );

    // ------------------------------------------------------------------ sent messages
    app.get(
      `${MESSAGE}/list`,
      {
        config: { permission: 'system:message:list' },
        schema: {
          tags,
          summary: "The company's messages, newest first",
          querystring: ZMessageQuery,
          response: responses(ZMessagePage),
        },
      },
      async (req) => ok(await messages.list(req.scope, req.query)),
    );
    app.get(
      `${MESSAGE}/queryById`,
      {
        config: { permission: 'system:message:list' },
        schema: {
          tags,
          summary: 'One message',
          querystring: ZIdQuery,
          response: responses(ZMessage),
        },
      },
      async (req) => ok(await messages.get(req.scope, req.query.id)),
    );
    app.post(
      `${MESSAGE}/resend`,
      {
        config: { permission: 'system:message:resend' },
        schema: {
          tags,
          summary: 'Send a failed message again (attempted at once, then retried)',
          body: ZMessageResend,
          response: responses(ZMessage),
        },
      },
      async (req) =>
        ok(await messages.resend(req.scope, req.body.id), message(req.lang, 'messageQueued')),
    );

    // ------------------------------------------------------------------ webhooks
    app.get(
      `${WEBHOOK}/list`,
      {
        config: { permission: 'system:message:webhook:list' },
        schema: {
          tags,
          summary: "The company's webhook endpoints (secrets are never returned)",
          querystring: ZNoQuery,
          response: responses(ZWebhookList),
        },
      },
      async (req) => ok(await webhooks.list(req.scope)),
    );
    app.post(
      `${WEBHOOK}/add`,
      {
        config: { permission: 'system:message:webhook:add' },
        schema: {
          tags,
          summary: 'Add an endpoint; its signing secret is in the answer, this once',
          body: ZWebhookInput,
          response: responses(ZWebhookWithSecret),
        },
      },
      async (req) => ok(await webhooks.add(req.scope, req.body), message(req.lang, 'messageSaved')),
    );
    app.put(
      `${WEBHOOK}/edit`,
      {
        config: { permission: 'system:message:webhook:edit' },
        schema: {
          tags,
          summary: 'Change the name, URL or state of an endpoint',
          body: ZWebhookEdit,
          response: responses(ZWebhook),
        },
      },
      async (req) =>
        ok(await webhooks.edit(req.scope, req.body), message(req.lang, 'messageSaved')),
    );
    app.post(
      `${WEBHOOK}/rotateSecret`,
      {
        config: { permission: 'system:message:webhook:edit' },
        schema: {
          tags,
          summary: 'A new signing secret, in the answer this once',
          body: ZIdBody,
          response: responses(ZWebhookWithSecret),
        },
      },
      async (req) =>
        ok(await webhooks.rotateSecret(req.scope, req.body.id), message(req.lang, 'messageSaved')),
    );
    app.delete(
      `${WEBHOOK}/delete`,
      {
        config: { permission: 'system:message:webhook:delete' },
        schema: {
          tags,
          summary: 'Delete an endpoint',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await webhooks.delete(req.scope, req.query.id);
        return ok(null, message(req.lang, 'messageDeleted'));
      },
    );
    app.post(
      `${WEBHOOK}/test`,
      {
        config: { permission: 'system:message:webhook:test' },
        schema: {
          tags,
          summary: 'Send a signed test event to the endpoint now; answers its history row',
          body: ZIdBody,
          response: responses(ZMessage),
        },
      },
      async (req) => ok(await webhooks.test(req.scope, req.body.id, req.lang)),
    );
    app.get(
      `${WEBHOOK}/network`,
      {
        config: { permission: 'system:setting:webhook' },
        schema: {
          tags,
          summary: 'Whether webhooks may reach private networks and plain http (platform)',
          querystring: ZNoQuery,
          response: responses(ZWebhookNetwork),
        },
      },
      async (req) => ok(await webhooks.network(req.scope)),
    );
    app.put(
      `${WEBHOOK}/network`,
      {
        config: { permission: 'system:setting:webhook' },
        schema: {
          tags,
          summary: 'Allow or refuse private-network webhooks (platform administrators)',
          body: ZWebhookNetwork,
          response: responses(ZWebhookNetwork),
        },
      },
      async (req) =>
        ok(await webhooks.setNetwork(req.scope, req.body), message(req.lang, 'messageSaved')),
    );
  };
}
