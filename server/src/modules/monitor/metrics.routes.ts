import type { FastifyInstance } from 'fastify';
import { AppError } from '../../platform/http/app-error.js';
import { bearerMatches, type MetricsService } from './metrics.service.js';

export const METRICS_PATH = '/metrics';

/**
 * `GET /metrics` in the Prometheus text format, outside /api like scrapers expect. Off (404, as
 * any unknown path) unless METRICS_TOKEN is set; then only `Authorization: Bearer <token>` reads
 * it (compared in constant time). Public to the session guard: the token is its access check.
 */
export function registerMetricsRoute(
  app: FastifyInstance,
  metrics: MetricsService,
  token: string | undefined,
): void {
  app.get(
    METRICS_PATH,
    { config: { public: true }, schema: { hide: true } },
    async (request, reply) => {
      if (!token) throw new AppError('notFound', 404);
      if (!bearerMatches(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new AppError('metricsTokenInvalid', 401);
      }
      const text = await metrics.render();
      return reply
        .header('content-type', metrics.registry.contentType)
        .header('cache-control', 'no-store')
        .send(text);
    },
  );
}
