import { ZCacheBuster } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import type { HealthService } from './health.service.js';

const ZHealth = z.object({ status: z.literal('ok'), db: z.literal('ok') });

export function healthRoutes(health: HealthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { public: true },
        schema: {
          tags: ['platform'],
          summary: 'Liveness and database check',
          querystring: ZCacheBuster,
          response: responses(ZHealth),
        },
      },
      async () => ok(await health.check()),
    );
  };
}
