import {
  ZBatchResult,
  ZDeviceGroup,
  ZDeviceGroupCreate,
  ZDeviceGroupEdit,
  ZDeviceGroupOption,
  ZDeviceGroupQuery,
  ZIdQuery,
  ZIdsQuery,
  pageOf,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { GroupService } from './group.service.js';

const tags = ['device-group'];

export function groupRoutes(groups: GroupService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/device/group/list',
      {
        config: { permission: 'group:list' },
        schema: {
          tags,
          summary: 'Groups of the company with their devices by status',
          querystring: ZDeviceGroupQuery,
          response: responses(pageOf(ZDeviceGroup)),
        },
      },
      async (req) => ok(await groups.list(req.scope, req.query)),
    );

    app.get(
      '/device/group/queryall',
      {
        // Device forms and filters need the groups too: group:list or device:list.
        config: { authenticated: true },
        schema: {
          tags,
          summary: 'All groups of the company, for selects (group:list or device:list)',
          querystring: ZNoQuery,
          response: responses(z.array(ZDeviceGroupOption)),
        },
      },
      async (req) => ok(await groups.options(req.scope)),
    );

    app.get(
      '/device/group/queryById',
      {
        config: { permission: 'group:list' },
        schema: {
          tags,
          summary: 'One group with its devices by status',
          querystring: ZIdQuery,
          response: responses(ZDeviceGroup),
        },
      },
      async (req) => ok(await groups.get(req.scope, req.query.id)),
    );

    app.post(
      '/device/group/add',
      {
        config: { permission: 'group:add' },
        schema: {
          tags,
          summary: 'Create a group; names are unique in the company',
          body: ZDeviceGroupCreate,
          response: responses(ZDeviceGroup),
        },
      },
      async (req) => ok(await groups.add(req.scope, req.body), message(req.lang, 'saved')),
    );

    app.put(
      '/device/group/edit',
      {
        config: { permission: 'group:edit' },
        schema: {
          tags,
          summary: 'Rename a group or change its remark',
          body: ZDeviceGroupEdit,
          response: responses(ZDeviceGroup),
        },
      },
      async (req) => ok(await groups.edit(req.scope, req.body), message(req.lang, 'saved')),
    );

    app.delete(
      '/device/group/delete',
      {
        config: { permission: 'group:delete' },
        schema: {
          tags,
          summary: 'Delete a group; its devices stay, in no group',
          querystring: ZIdQuery,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok({ count: await groups.delete(req.scope, [req.query.id]) }, message(req.lang, 'deleted')),
    );

    app.delete(
      '/device/group/deleteBatch',
      {
        config: { permission: 'group:delete' },
        schema: {
          tags,
          summary: 'Delete groups; all or nothing; their devices stay, in no group',
          querystring: ZIdsQuery,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok({ count: await groups.delete(req.scope, req.query.ids) }, message(req.lang, 'deleted')),
    );
  };
}
