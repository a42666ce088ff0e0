import {
  ZCacheBuster,
  ZMonitorDatabase,
  ZMonitorNodes,
  ZMonitorRedis,
  ZMonitorTrace,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, responses } from '../../platform/http/envelope.js';
import type { MonitorService } from './monitor.service.js';

const tags = ['monitor'];
const access = { permission: 'system:monitor:view' } as const;

export function monitorRoutes(monitor: MonitorService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/monitor/nodes',
      {
        config: access,
        schema: {
          tags,
          summary: 'Every server node: process, connections, MQTT, pool, disk, with recent history',
          querystring: ZCacheBuster,
          response: responses(ZMonitorNodes),
        },
      },
      async (req) => ok(await monitor.listNodes(req.scope)),
    );

    app.get(
      '/sys/monitor/database',
      {
        config: access,
        schema: {
          tags,
          summary: "Database size, each node's pool and slowest recent statements",
          querystring: ZCacheBuster,
          response: responses(ZMonitorDatabase),
        },
      },
      async (req) => ok(await monitor.database(req.scope)),
    );

    app.get(
      '/sys/monitor/redis',
      {
        config: access,
        schema: {
          tags,
          summary: 'Redis memory, clients and pub/sub channels (REDIS_URL); its error when down',
          querystring: ZCacheBuster,
          response: responses(ZMonitorRedis),
        },
      },
      async (req) => ok(await monitor.redis(req.scope)),
    );

    app.get(
      '/sys/monitor/trace',
      {
        config: access,
        schema: {
          tags,
          summary: 'The last requests the answering node served (no bodies, tokens or queries)',
          querystring: ZCacheBuster,
          response: responses(ZMonitorTrace),
        },
      },
      async (req) => ok(await monitor.trace(req.scope)),
    );
  };
}
