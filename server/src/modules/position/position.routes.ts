import {
  ZOrgIdQuery,
  ZOrgIdsQuery,
  ZPosition,
  ZPositionAdd,
  ZPositionEdit,
  ZPositionOption,
  ZPositionPage,
  ZPositionQuery,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { PositionService } from './position.service.js';

const tags = ['position'];

export function positionRoutes(positions: PositionService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/position/list',
      {
        config: { permission: 'account:position:list' },
        schema: {
          tags,
          summary: 'Positions of the current company, paged, filtered and sorted',
          querystring: ZPositionQuery,
          response: responses(ZPositionPage),
        },
      },
      async (req) => ok(await positions.list(req.scope, req.query)),
    );

    // Every signed-in user of the company may read the options: user forms offer them as a select.
    app.get(
      '/sys/position/queryall',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary: 'All positions of the current company (for selects)',
          querystring: ZNoQuery,
          response: responses(z.array(ZPositionOption)),
        },
      },
      async (req) => ok(await positions.queryAll(req.scope)),
    );

    app.get(
      '/sys/position/queryById',
      {
        config: { permission: 'account:position:list' },
        schema: { tags, querystring: ZOrgIdQuery, response: responses(ZPosition) },
      },
      async (req) => ok(await positions.byId(req.scope, req.query.id)),
    );

    app.post(
      '/sys/position/add',
      {
        config: { permission: 'account:position:add' },
        schema: { tags, body: ZPositionAdd, response: responses(ZPosition) },
      },
      async (req) => ok(await positions.add(req.scope, req.body), message(req.lang, 'orgSaved')),
    );

    app.put(
      '/sys/position/edit',
      {
        config: { permission: 'account:position:edit' },
        schema: { tags, body: ZPositionEdit, response: responses(ZPosition) },
      },
      async (req) => ok(await positions.edit(req.scope, req.body), message(req.lang, 'orgSaved')),
    );

    app.delete(
      '/sys/position/delete',
      {
        config: { permission: 'account:position:delete' },
        schema: { tags, querystring: ZOrgIdQuery, response: responses(z.null()) },
      },
      async (req) => {
        await positions.delete(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'orgDeleted'));
      },
    );

    app.delete(
      '/sys/position/deleteBatch',
      {
        config: { permission: 'account:position:delete' },
        schema: { tags, querystring: ZOrgIdsQuery, response: responses(z.null()) },
      },
      async (req) => {
        await positions.delete(req.scope, req.query.ids.split(','));
        return ok(null, message(req.lang, 'orgDeleted'));
      },
    );
  };
}
