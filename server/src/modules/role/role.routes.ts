import {
  ZAdminIdQuery,
  ZAdminIdsQuery,
  ZPermissionRuleQuery,
  ZRole,
  ZRoleAdd,
  ZRoleDataRules,
  ZRoleEdit,
  ZRolePage,
  ZRolePermissionQuery,
  ZRoleQuery,
  ZRoleQueryAll,
  ZSaveRoleDataRule,
  ZSaveRolePermission,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { RoleService } from './role.service.js';

export function roleRoutes(roles: RoleService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/role/list',
      {
        config: { permission: 'account:role:list' },
        schema: {
          tags: ['role'],
          summary: 'Roles of the current company',
          querystring: ZRoleQuery,
          response: responses(ZRolePage),
        },
      },
      async (req) => ok(await roles.list(req.scope, req.query)),
    );

    app.get(
      '/sys/role/queryall',
      {
        // The user form's role select: whoever may see users may see the role names.
        config: { permission: 'account:user:list' },
        schema: {
          tags: ['role'],
          summary: 'All roles of the current company (platform administrators: of any company)',
          querystring: ZRoleQueryAll,
          response: responses(z.array(ZRole)),
        },
      },
      async (req) => ok(await roles.all(req.scope, req.query.companyId)),
    );

    app.get(
      '/sys/role/queryById',
      {
        config: { permission: 'account:role:list' },
        schema: {
          tags: ['role'],
          summary: 'One role of the current company',
          querystring: ZAdminIdQuery,
          response: responses(ZRole),
        },
      },
      async (req) => ok(await roles.byId(req.scope, req.query.id)),
    );

    app.post(
      '/sys/role/add',
      {
        config: { permission: 'account:role:add', operateType: 'add' },
        schema: {
          tags: ['role'],
          summary: 'Add a role (code unique in the company)',
          body: ZRoleAdd,
          response: responses(ZRole),
        },
      },
      async (req) => ok(await roles.add(req.scope, req.body), message(req.lang, 'adminSaved')),
    );

    app.put(
      '/sys/role/edit',
      {
        config: { permission: 'account:role:edit', operateType: 'edit' },
        schema: {
          tags: ['role'],
          summary: 'Edit a role',
          body: ZRoleEdit,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await roles.edit(req.scope, req.body);
        return ok(null, message(req.lang, 'adminSaved'));
      },
    );

    app.delete(
      '/sys/role/delete',
      {
        config: { permission: 'account:role:delete', operateType: 'delete' },
        schema: {
          tags: ['role'],
          summary: 'Delete a role; its holders lose what it granted',
          querystring: ZAdminIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await roles.remove(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'adminDeleted'));
      },
    );

    app.delete(
      '/sys/role/deleteBatch',
      {
        config: { permission: 'account:role:delete', operateType: 'delete' },
        schema: {
          tags: ['role'],
          summary: 'Delete roles',
          querystring: ZAdminIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await roles.remove(req.scope, req.query.ids);
        return ok(null, message(req.lang, 'adminDeleted'));
      },
    );

    app.get(
      '/sys/permission/queryRolePermission',
      {
        config: { permission: 'account:role:authorize' },
        schema: {
          tags: ['role'],
          summary: 'Permission ids (menus and buttons) the role grants',
          querystring: ZRolePermissionQuery,
          response: responses(z.array(z.string())),
        },
      },
      async (req) => ok(await roles.permissionIds(req.scope, req.query.roleId)),
    );

    app.post(
      '/sys/permission/saveRolePermission',
      {
        config: { permission: 'account:role:authorize', operateType: 'authorize' },
        schema: {
          tags: ['role'],
          summary:
            'Set the permissions a role grants; holders see the change on their next request',
          body: ZSaveRolePermission,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await roles.savePermissions(req.scope, req.body);
        return ok(null, message(req.lang, 'adminSaved'));
      },
    );

    app.get(
      '/sys/permission/queryPermissionRule',
      {
        config: { permission: 'account:role:authorize' },
        schema: {
          tags: ['role'],
          summary: "A permission's data rules and those the role's grant carries",
          querystring: ZPermissionRuleQuery,
          response: responses(ZRoleDataRules),
        },
      },
      async (req) => ok(await roles.dataRules(req.scope, req.query.roleId, req.query.permissionId)),
    );

    app.post(
      '/sys/role/datarule',
      {
        config: { permission: 'account:role:authorize', operateType: 'authorize' },
        schema: {
          tags: ['role'],
          summary: "Choose which of a permission's data rules the role's grant carries",
          body: ZSaveRoleDataRule,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const bypassed = await roles.saveDataRules(req.scope, req.body);
        return ok(
          null,
          bypassed > 0
            ? message(req.lang, 'dataRuleBypassed', { count: bypassed })
            : message(req.lang, 'adminSaved'),
        );
      },
    );
  };
}
