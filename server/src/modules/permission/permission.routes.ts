import { ZUserPermission } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import type { UserPermissionService } from './permission.service.js';

export function permissionRoutes(userPermissions: UserPermissionService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/permission/getUserPermissionByToken',
      {
        config: { authenticated: true },
        schema: {
          tags: ['permission'],
          summary: "The caller's menu tree and action permissions in the current company",
          querystring: ZNoQuery,
          response: responses(ZUserPermission),
        },
      },
      async (req) => ok(await userPermissions.userPermission(req.scope, req.lang)),
    );
  };
}
