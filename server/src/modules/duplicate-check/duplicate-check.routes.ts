import { ZDuplicateCheckQuery } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { DuplicateCheckService } from './duplicate-check.service.js';

export function duplicateCheckRoutes(duplicates: DuplicateCheckService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/duplicate/check',
      {
        config: { authenticated: true },
        schema: {
          tags: ['sys'],
          summary: 'Whether a value is still free in a whitelisted (table, field); 409 when taken',
          querystring: ZDuplicateCheckQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await duplicates.check(req.scope, req.query);
        return ok(null, message(req.lang, 'duplicateAvailable'));
      },
    );
  };
}
