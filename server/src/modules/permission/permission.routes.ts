import { ZUserPermission } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZNoQuery, responses } from '../../platform/http/envelope.js';
import type { UserPermissionService } from './permission.service.js';

const ENVELOPE_HEAD = Buffer.from('{"success":true,"message":"","code":200,"result":');

export function permissionRoutes(userPermissions: UserPermissionService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/permission/getUserPermissionByToken',
      {
        config: { authenticated: true, apiKey: true },
        schema: {
          tags: ['permission'],
          summary: "The caller's menu tree and action permissions in the current company",
          querystring: ZNoQuery,
          response: responses(ZUserPermission),
        },
      },
      async (req, reply) => {
        // The result is cached already serialised and encoded; only the envelope around it is
        // added here, as bytes: one copy of the cached bytes, no string of the body. Fastify sends
        // a Buffer as it is, so the cast only tells the typed reply what the bytes hold: the
        // envelope of the response schema above.
        const result = await userPermissions.userPermissionJson(req.scope, req.lang);
        const body = Buffer.concat([
          ENVELOPE_HEAD,
          result,
          Buffer.from(`,"timestamp":${Date.now()}}`),
        ]);
        return reply.type('application/json; charset=utf-8').send(body as never);
      },
    );
  };
}
