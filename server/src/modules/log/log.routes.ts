import { ZLogInfo, ZSysLog, ZSysLogQuery, ZVisitInfo, pageOf } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import type { LogService } from './log.service.js';

export function logRoutes(logs: LogService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/log/list',
      {
        config: { permission: 'system:log:list' },
        schema: {
          tags: ['log'],
          summary: 'Login and operation logs of the current company',
          querystring: ZSysLogQuery,
          response: responses(pageOf(ZSysLog)),
        },
      },
      async (req) => ok(await logs.list(req.scope, req.query, req.lang)),
    );

    app.get(
      '/sys/loginfo',
      {
        config: { authenticated: true },
        schema: {
          tags: ['log'],
          summary: "Today's logins and IPs, and all logins, of the current company",
          querystring: ZNoQuery,
          response: responses(ZLogInfo),
        },
      },
      async (req) => ok(await logs.loginInfo(req.scope)),
    );

    app.get(
      '/sys/visitInfo',
      {
        config: { authenticated: true },
        schema: {
          tags: ['log'],
          summary: 'Logins and distinct IPs per day over the last 7 days',
          querystring: ZNoQuery,
          response: responses(ZVisitInfo),
        },
      },
      async (req) => ok(await logs.visitInfo(req.scope)),
    );

    app.get(
      '/sys/user/lastLogins',
      {
        config: { authenticated: true },
        schema: {
          tags: ['log'],
          summary: "The caller's last 10 logins",
          querystring: ZNoQuery,
          response: responses(z.array(ZSysLog)),
        },
      },
      async (req) => ok(await logs.lastLogins(req.scope, req.lang)),
    );
  };
}
