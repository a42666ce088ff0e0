import type { FastifyInstance } from 'fastify';
import type { MetricsService } from './metrics.service.js';
import type { RequestTrace } from './request-trace.service.js';

/** Every answered request goes into this node's trace and the HTTP metrics. */
export function registerMonitorHooks(
  app: FastifyInstance,
  trace: RequestTrace,
  metrics: MetricsService,
): void {
  app.addHook('onResponse', (request, reply, done) => {
    trace.record(request, reply);
    metrics.observe(request, reply);
    done();
  });
}
