import { ZCacheBuster } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import type { HealthService } from './health.service.js';

const ZHealth = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  version: z.string().describe('Server version (its package version)'),
});

export function healthRoutes(health: HealthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        config: { public: true },
        schema: {
          tags: ['platform'],
          summary: 'Liveness, database check and the server version',
          querystring: ZCacheBuster,
          response: responses(ZHealth),
        },
      },
      async () => ok(await health.check()),
    );
  };
}
