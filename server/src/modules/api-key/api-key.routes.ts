import {
  API_KEY_PERMISSION,
  ZApiKey,
  ZApiKeyAdminQuery,
  ZApiKeyCreate,
  ZApiKeyCreated,
  ZApiKeyIdQuery,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { ApiKeyService } from './api-key.service.js';

const tags = ['api-key'];
const ADMIN_PERMISSION = 'apikey:admin';

/**
 * Every route here needs a session (`sessionOnly`): a key cannot make, list or revoke keys, so a
 * leaked key cannot outlive its own revocation by minting another.
 */
export function apiKeyRoutes(apiKeys: ApiKeyService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/apiKey/list',
      {
        config: { permission: API_KEY_PERMISSION, sessionOnly: true },
        schema: {
          tags,
          summary: "The caller's API keys, newest first (the secret is never returned)",
          querystring: ZNoQuery,
          response: responses(z.array(ZApiKey)),
        },
      },
      async (req) => ok(await apiKeys.listOwn(req.scope)),
    );

    app.post(
      '/sys/apiKey/add',
      {
        config: { permission: API_KEY_PERMISSION, sessionOnly: true },
        schema: {
          tags,
          summary: 'Creates an API key with a subset of the caller’s permission codes',
          description:
            'The answer holds the key (`blrms_<id>_<secret>`) this once; only its hash is kept.',
          body: ZApiKeyCreate,
          response: responses(ZApiKeyCreated),
        },
      },
      async (req) =>
        ok(await apiKeys.create(req.scope, req.body), message(req.lang, 'apiKeyCreated')),
    );

    app.delete(
      '/sys/apiKey/revoke',
      {
        config: { permission: API_KEY_PERMISSION, sessionOnly: true, operateType: 'revoke' },
        schema: { tags, querystring: ZApiKeyIdQuery, response: responses(z.null()) },
      },
      async (req) => {
        await apiKeys.revokeOwn(req.scope, req.query.id);
        return ok(null, message(req.lang, 'apiKeyRevokedOk'));
      },
    );

    app.get(
      '/sys/apiKey/listAll',
      {
        config: { permission: ADMIN_PERMISSION, sessionOnly: true },
        schema: {
          tags,
          summary: 'Every API key of the company (of every company for platform administrators)',
          querystring: ZApiKeyAdminQuery,
          response: responses(z.array(ZApiKey)),
        },
      },
      async (req) => ok(await apiKeys.listAll(req.scope, req.query.userId)),
    );

    app.delete(
      '/sys/apiKey/adminRevoke',
      {
        config: { permission: ADMIN_PERMISSION, sessionOnly: true, operateType: 'revoke' },
        schema: { tags, querystring: ZApiKeyIdQuery, response: responses(z.null()) },
      },
      async (req) => {
        await apiKeys.revokeAny(req.scope, req.query.id);
        return ok(null, message(req.lang, 'apiKeyRevokedOk'));
      },
    );
  };
}
