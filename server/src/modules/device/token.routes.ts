import {
  ZBatchResult,
  ZDeviceToken,
  ZDeviceTokenCreate,
  ZDeviceTokenEdit,
  ZDeviceTokenQuery,
  ZDeviceTokenWithKey,
  ZIdBody,
  ZIdQuery,
  ZIdsQuery,
  ZRemovedSn,
  ZRemovedSnAllow,
  ZRemovedSnQuery,
  ZTokenKey,
  pageOf,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { TokenService } from './token.service.js';

const tags = ['device-token'];

export function tokenRoutes(tokens: TokenService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/device/token/list',
      {
        config: { permission: 'token:list' },
        schema: {
          tags,
          summary: 'Token keys of the company (keys masked)',
          querystring: ZDeviceTokenQuery,
          response: responses(pageOf(ZDeviceToken)),
        },
      },
      async (req) => ok(await tokens.list(req.scope, req.query)),
    );

    app.get(
      '/device/token/queryById',
      {
        config: { permission: 'token:list' },
        schema: {
          tags,
          summary: 'One token key (key masked)',
          querystring: ZIdQuery,
          response: responses(ZDeviceToken),
        },
      },
      async (req) => ok(await tokens.get(req.scope, req.query.id)),
    );

    app.post(
      '/device/token/add',
      {
        config: { permission: 'token:add' },
        schema: {
          tags,
          summary: 'Create a token key owned by the caller; the answer carries the full key',
          body: ZDeviceTokenCreate,
          response: responses(ZDeviceTokenWithKey),
        },
      },
      async (req) => ok(await tokens.add(req.scope, req.body), message(req.lang, 'saved')),
    );

    app.put(
      '/device/token/edit',
      {
        config: { permission: 'token:edit' },
        schema: {
          tags,
          summary: 'Rename, enable or disable a token key, switch auto-registration',
          body: ZDeviceTokenEdit,
          response: responses(ZDeviceToken),
        },
      },
      async (req) => ok(await tokens.edit(req.scope, req.body), message(req.lang, 'saved')),
    );

    app.put(
      '/device/token/regenerate',
      {
        config: { permission: 'token:edit' },
        schema: {
          tags,
          summary: 'Replace the key; devices using the old key can no longer log in',
          body: ZIdBody,
          response: responses(ZTokenKey),
        },
      },
      async (req) =>
        ok(await tokens.regenerate(req.scope, req.body.id), message(req.lang, 'saved')),
    );

    app.get(
      '/device/token/revealKey',
      {
        config: { permission: 'token:reveal' },
        schema: {
          tags,
          summary: 'The full key of a token',
          querystring: ZIdQuery,
          response: responses(ZTokenKey),
        },
      },
      async (req) => ok(await tokens.revealKey(req.scope, req.query.id)),
    );

    app.delete(
      '/device/token/delete',
      {
        config: { permission: 'token:delete' },
        schema: {
          tags,
          summary: 'Delete a token key no device uses (409 otherwise)',
          querystring: ZIdQuery,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok({ count: await tokens.delete(req.scope, [req.query.id]) }, message(req.lang, 'deleted')),
    );

    app.delete(
      '/device/token/deleteBatch',
      {
        config: { permission: 'token:delete' },
        schema: {
          tags,
          summary: 'Delete token keys no device uses; all or nothing',
          querystring: ZIdsQuery,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok({ count: await tokens.delete(req.scope, req.query.ids) }, message(req.lang, 'deleted')),
    );

    app.get(
      '/device/token/removedSns',
      {
        config: { permission: 'token:list' },
        schema: {
          tags,
          summary: 'SNs deleted from a token, which auto-registration refuses (device-removed)',
          querystring: ZRemovedSnQuery,
          response: responses(pageOf(ZRemovedSn)),
        },
      },
      async (req) => ok(await tokens.removedSns(req.scope, req.query)),
    );

    app.post(
      '/device/token/allowSns',
      {
        config: { permission: 'token:edit' },
        schema: {
          tags,
          summary: 'Let removed SNs register with the token again',
          body: ZRemovedSnAllow,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok({ count: await tokens.allowSns(req.scope, req.body) }, message(req.lang, 'saved')),
    );
  };
}
