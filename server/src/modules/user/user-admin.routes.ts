import {
  ZAdminChangePassword,
  ZAdminIdQuery,
  ZAdminIdsQuery,
  ZAdminUser,
  ZAdminUserAdd,
  ZAdminUserEdit,
  ZAdminUserExportQuery,
  ZAdminUserPage,
  ZAdminUserQuery,
  ZCheckOnlyUserQuery,
  ZFrozenBatch,
  ZAdminIdList,
  ZUserImportResult,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { serverTimeZone } from '../../platform/sheet/sheet-cells.js';
import type { UserAdminService } from './user-admin.service.js';
import { CSV_TYPE, XLSX_TYPE, parseUserFile, toCsv, toXlsx } from './user-file.js';

const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export function userAdminRoutes(users: UserAdminService): FastifyPluginAsyncZod {
  return async (app) => {
    // The import takes the file as the raw request body, typed by its content type.
    app.addContentTypeParser(
      [CSV_TYPE, XLSX_TYPE],
      { parseAs: 'buffer', bodyLimit: IMPORT_MAX_BYTES },
      (_req, body, done) => done(null, body),
    );

    app.get(
      '/sys/user/list',
      {
        config: { permission: 'account:user:list' },
        schema: {
          tags: ['user-admin'],
          summary: 'Login accounts of the current company (platform administrators: any)',
          querystring: ZAdminUserQuery,
          response: responses(ZAdminUserPage),
        },
      },
      async (req) => ok(await users.list(req.scope, req.query, req.lang)),
    );

    app.get(
      '/sys/user/queryUserRole',
      {
        config: { permission: 'account:user:list' },
        schema: {
          tags: ['user-admin'],
          summary: "A user's role ids",
          querystring: z
            .object({ userid: ZAdminIdQuery.shape.id, _t: z.string().optional() })
            .strict(),
          response: responses(z.array(z.string())),
        },
      },
      async (req) => ok(await users.queryUserRole(req.scope, req.query.userid)),
    );

    app.get(
      '/sys/user/queryUserByDepId',
      {
        config: { permission: 'account:user:list' },
        schema: {
          tags: ['user-admin'],
          summary: 'Users of a department of the current company',
          querystring: ZAdminIdQuery,
          response: responses(z.array(ZAdminUser)),
        },
      },
      async (req) => ok(await users.usersOfDepart(req.scope, req.query.id, req.lang)),
    );

    app.get(
      '/sys/user/checkOnlyUser',
      {
        config: { permission: 'account:user:list' },
        schema: {
          tags: ['user-admin'],
          summary: 'Whether a username, phone or email is still free (409 with the reason if not)',
          querystring: ZCheckOnlyUserQuery,
          response: responses(z.boolean()),
        },
      },
      async (req) => {
        await users.checkOnly(req.query);
        return ok(true, message(req.lang, 'duplicateAvailable'));
      },
    );

    app.post(
      '/sys/user/add',
      {
        config: { permission: 'account:user:add', operateType: 'add' },
        schema: {
          tags: ['user-admin'],
          summary: 'Add a login account with roles, departments and positions',
          body: ZAdminUserAdd,
          response: responses(ZAdminUser),
        },
      },
      async (req) =>
        ok(await users.add(req.scope, req.body, req.lang), message(req.lang, 'adminSaved')),
    );

    app.put(
      '/sys/user/edit',
      {
        config: { permission: 'account:user:edit', operateType: 'edit' },
        schema: {
          tags: ['user-admin'],
          summary: "Edit a user's name, contacts, roles, departments and positions",
          body: ZAdminUserEdit,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await users.edit(req.scope, req.body);
        return ok(null, message(req.lang, 'adminSaved'));
      },
    );

    app.put(
      '/sys/user/frozenBatch',
      {
        config: { permission: 'account:user:freeze', operateType: 'frozenBatch' },
        schema: {
          tags: ['user-admin'],
          summary: 'Freeze (status 2; sessions end) or unfreeze (status 1) users',
          body: ZFrozenBatch,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const ids = ZAdminIdList.safeParse(req.body.ids);
        if (!ids.success) throw new AppError('adminBadIds', 400);
        await users.setFrozen(req.scope, ids.data, req.body.status === '2');
        return ok(null, message(req.lang, 'adminSaved'));
      },
    );

    app.put(
      '/sys/user/changePassword',
      {
        config: {
          permission: 'account:user:resetPassword',
          operateType: 'changePassword',
          // Setting someone's password is a sign-in's act, never an API key's (issue 14).
          sessionOnly: true,
        },
        schema: {
          tags: ['user-admin'],
          summary: "Set another user's password; their sessions end",
          body: ZAdminChangePassword,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await users.changePassword(req.scope, req.body);
        return ok(null, message(req.lang, 'adminPasswordReset'));
      },
    );

    app.delete(
      '/sys/user/delete',
      {
        config: { permission: 'account:user:delete', operateType: 'delete' },
        schema: {
          tags: ['user-admin'],
          summary: 'Delete a user (soft); their sessions end',
          querystring: ZAdminIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await users.remove(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'adminDeleted'));
      },
    );

    app.delete(
      '/sys/user/deleteBatch',
      {
        config: { permission: 'account:user:delete', operateType: 'delete' },
        schema: {
          tags: ['user-admin'],
          summary: 'Delete users (soft)',
          querystring: ZAdminIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await users.remove(req.scope, req.query.ids);
        return ok(null, message(req.lang, 'adminDeleted'));
      },
    );

    app.get(
      '/sys/user/exportXls',
      {
        config: { permission: 'account:user:export' },
        schema: {
          tags: ['user-admin'],
          summary: 'The filtered users as an XLSX or CSV attachment',
          querystring: ZAdminUserExportQuery,
        },
      },
      async (req, reply) => {
        const rows = await users.exportRows(req.scope, req.query, req.lang);
        const csv = req.query.format === 'csv';
        const timeZone = req.query.tz ?? serverTimeZone();
        const body = csv ? toCsv(rows, req.lang, timeZone) : await toXlsx(rows, req.lang, timeZone);
        return reply
          .type(csv ? `${CSV_TYPE}; charset=utf-8` : XLSX_TYPE)
          .header('content-disposition', `attachment; filename="users.${req.query.format}"`)
          .send(body);
      },
    );

    app.post(
      '/sys/user/importExcel',
      {
        config: { permission: 'account:user:import', operateType: 'import' },
        schema: {
          tags: ['user-admin'],
          summary:
            'Create users from an XLSX or CSV file (body: the file, typed by its content type)',
          response: responses(ZUserImportResult),
        },
      },
      async (req) => {
        const body = req.body;
        const rows = Buffer.isBuffer(body)
          ? await parseUserFile(body, req.headers['content-type'] ?? '')
          : null;
        if (!rows) throw new AppError('adminImportBadFile', 400);
        const result = await users.importRows(req.scope, rows, req.lang);
        return ok(result, message(req.lang, 'adminImported', { created: result.created }));
      },
    );
  };
}
