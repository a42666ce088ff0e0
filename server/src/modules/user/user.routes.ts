import {
  ZCurrentUserDeparts,
  ZSelectDepartRequest,
  ZSelectDepartResult,
  ZUpdatePasswordRequest,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { UserService } from './user.service.js';

export function userRoutes(users: UserService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/user/getCurrentUserDeparts',
      {
        config: { authenticated: true },
        schema: {
          tags: ['user'],
          summary: "The caller's departments in the current company, and the current one",
          querystring: ZNoQuery,
          response: responses(ZCurrentUserDeparts),
        },
      },
      async (req) => ok(await users.currentUserDeparts(req.scope)),
    );

    app.post(
      '/sys/selectDepart',
      {
        config: { authenticated: true, operateType: 'selectDepart' },
        schema: {
          tags: ['user'],
          summary: "Switch the caller's current department",
          body: ZSelectDepartRequest,
          response: responses(ZSelectDepartResult),
        },
      },
      async (req) =>
        ok(
          { userInfo: await users.selectDepart(req.scope, req.body) },
          message(req.lang, 'departSelected'),
        ),
    );

    app.put(
      '/sys/user/updatePassword',
      {
        config: { authenticated: true, operateType: 'updatePassword' },
        schema: {
          tags: ['user'],
          summary: "Change the caller's password; ends all of the caller's sessions",
          body: ZUpdatePasswordRequest,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await users.updatePassword(req.scope, req.body);
        return ok(null, message(req.lang, 'passwordChanged'));
      },
    );
  };
}
