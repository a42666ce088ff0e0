import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { AppError } from './app-error.js';
import { clientSource } from './client-source.js';
import { registerCompression } from './compression.js';

export const API_PREFIX = '/api';

/**
 * What routes declare besides their handler: per-route rate limits (`config.rateLimit`) and the
 * OpenAPI document built from their zod schemas, served with Swagger UI at /api/docs; and the
 * compression of what they answer.
 */
export async function registerRouteSupport(app: FastifyInstance): Promise<void> {
  await registerCompression(app);
  await app.register(fastifyRateLimit, {
    global: false,
    // An IPv6 client counts by its /64: it could take a fresh address for every request.
    keyGenerator: (request) => clientSource(request.ip),
    errorResponseBuilder: () => new AppError('tooManyRequests', 429),
  });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'BLRMS API',
        version: '0.1.0',
        description: 'Remote management platform for IoT devices',
      },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'X-Access-Token' },
          // Personal API keys (docs/api.md "API keys"): either header works.
          apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            bearerFormat: 'blrms_<id>_<secret>',
            description: 'A personal API key sent as `Authorization: Bearer <key>`',
          },
        },
      },
      security: [{ token: [] }, { apiKey: [] }, { bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: `${API_PREFIX}/docs` });
}
