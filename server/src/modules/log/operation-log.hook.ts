import type { FastifyInstance, FastifyRequest } from 'fastify';
import { scopeIfSignedIn } from '../../platform/auth/scope.js';
import type { RecordNames } from './operation.rules.js';
import type { LogService } from './log.service.js';

const READ_ONLY = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Every change a signed-in user makes leaves a row in the operation log, and so does every call
 * made with an API key, reads included (an integrator's script is audited call by call). The
 * names of the records a request acts on by id are read before it runs (a delete leaves nothing to
 * read afterwards); writes run after the response is sent; the returned function waits for
 * pending ones (the server calls it on close).
 */
export function registerOperationLog(app: FastifyInstance, logs: LogService): () => Promise<void> {
  const pending = new Set<Promise<void>>();
  const named = new WeakMap<FastifyRequest, RecordNames | undefined>();

  app.addHook('preHandler', async (request) => {
    const scope = scopeIfSignedIn(request);
    if (!scope || READ_ONLY.has(request.method)) return;
    const path = request.url.split('?')[0] ?? request.url;
    try {
      named.set(request, await logs.namesBefore(scope, path, request.query, request.body));
    } catch (err) {
      // The log names what it can; a failed lookup never fails the request itself.
      request.log.warn({ err }, 'operation log: record names not read');
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    const scope = scopeIfSignedIn(request);
    if (!scope || (READ_ONLY.has(request.method) && !scope.apiKey)) return;
    const write = logs
      .recordOperation({
        scope,
        method: request.method,
        path: request.url.split('?')[0] ?? request.url,
        status: reply.statusCode,
        ip: request.ip,
        costMs: reply.elapsedTime,
        declaredVerb: request.routeOptions.config.operateType,
        query: request.query,
        body: request.body,
        records: named.get(request),
      })
      .catch((err: unknown) => request.log.error({ err }, 'operation log write failed'))
      .finally(() => pending.delete(write));
    pending.add(write);
  });

  return async () => {
    await Promise.all(pending);
  };
}
