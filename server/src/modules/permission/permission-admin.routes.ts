import {
  ZAdminIdQuery,
  ZPermissionAdd,
  ZPermissionDataRule,
  ZPermissionEdit,
  ZPermissionNode,
  ZPermissionRuleAdd,
  ZPermissionRuleEdit,
  ZPermissionRuleList,
  ZPermissionTree,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { PermissionAdminService } from './permission-admin.service.js';

export function permissionAdminRoutes(catalogue: PermissionAdminService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/permission/list',
      {
        config: { permission: 'account:permission:list' },
        schema: {
          tags: ['permission'],
          summary: 'The whole menu and button catalogue as a tree (shared by all companies)',
          querystring: ZNoQuery,
          response: responses(z.array(ZPermissionNode)),
        },
      },
      async () => ok(await catalogue.list()),
    );

    app.get(
      '/sys/permission/queryTreeList',
      {
        config: { permission: 'account:role:authorize' },
        schema: {
          tags: ['permission'],
          summary: 'The permissions the caller may grant, as a tree for the role dialog',
          querystring: ZNoQuery,
          response: responses(ZPermissionTree),
        },
      },
      async (req) => ok(await catalogue.grantableTree(req.scope, req.lang)),
    );

    app.post(
      '/sys/permission/add',
      {
        config: { permission: 'account:permission:add', operateType: 'add' },
        schema: {
          tags: ['permission'],
          summary: 'Add a menu, page or button (platform administrators)',
          body: ZPermissionAdd,
          response: responses(z.object({ id: z.string() })),
        },
      },
      async (req) =>
        ok({ id: await catalogue.add(req.scope, req.body) }, message(req.lang, 'adminSaved')),
    );

    app.put(
      '/sys/permission/edit',
      {
        config: { permission: 'account:permission:edit', operateType: 'edit' },
        schema: {
          tags: ['permission'],
          summary: 'Edit a menu, page or button (platform administrators)',
          body: ZPermissionEdit,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await catalogue.edit(req.scope, req.body);
        return ok(null, message(req.lang, 'adminSaved'));
      },
    );

    app.delete(
      '/sys/permission/delete',
      {
        config: { permission: 'account:permission:delete', operateType: 'delete' },
        schema: {
          tags: ['permission'],
          summary: 'Delete a catalogue row and its children (platform administrators)',
          querystring: ZAdminIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await catalogue.remove(req.scope, req.query.id);
        return ok(null, message(req.lang, 'adminDeleted'));
      },
    );

    app.get(
      '/sys/permission/getPermRuleListByPermId',
      {
        config: { permission: 'account:permission:list' },
        schema: {
          tags: ['permission'],
          summary: 'Data rules defined on a permission',
          querystring: ZPermissionRuleList,
          response: responses(z.array(ZPermissionDataRule)),
        },
      },
      async (req) => ok(await catalogue.rules(req.query.permissionId)),
    );

    app.post(
      '/sys/permission/addPermissionRule',
      {
        config: { permission: 'account:permission:datarule', operateType: 'add' },
        schema: {
          tags: ['permission'],
          summary: "Add a data rule (column from the permission's whitelist, fixed operators)",
          body: ZPermissionRuleAdd,
          response: responses(ZPermissionDataRule),
        },
      },
      async (req) =>
        ok(await catalogue.addRule(req.scope, req.body), message(req.lang, 'adminSaved')),
    );

    app.put(
      '/sys/permission/editPermissionRule',
      {
        config: { permission: 'account:permission:datarule', operateType: 'edit' },
        schema: {
          tags: ['permission'],
          summary: 'Edit a data rule',
          body: ZPermissionRuleEdit,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await catalogue.editRule(req.scope, req.body);
        return ok(null, message(req.lang, 'adminSaved'));
      },
    );

    app.delete(
      '/sys/permission/deletePermissionRule',
      {
        config: { permission: 'account:permission:datarule', operateType: 'delete' },
        schema: {
          tags: ['permission'],
          summary: 'Delete a data rule; grants that carried it drop it',
          querystring: ZAdminIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await catalogue.removeRule(req.scope, req.query.id);
        return ok(null, message(req.lang, 'adminDeleted'));
      },
    );
  };
}
