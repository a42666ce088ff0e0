import { ZForceLogout, ZOnlineUserPage, ZOnlineUserQuery } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { OnlineUserService } from './online-user.service.js';

const tags = ['monitor'];

export function onlineUserRoutes(online: OnlineUserService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/online/list',
      {
        config: { permission: 'system:online:list' },
        schema: {
          tags,
          summary: 'Sessions still usable, of every company, most recently seen first',
          querystring: ZOnlineUserQuery,
          response: responses(ZOnlineUserPage),
        },
      },
      async (req) => ok(await online.list(req.scope, req.query)),
    );

    app.post(
      '/sys/online/forceLogout',
      {
        config: { permission: 'system:online:forceLogout' },
        schema: {
          tags,
          summary: 'End a session on every node (its console sockets close too)',
          body: ZForceLogout,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await online.forceLogout(req.scope, req.body);
        return ok(null, message(req.lang, 'onlineForcedOut'));
      },
    );
  };
}
