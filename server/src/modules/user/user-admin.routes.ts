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
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { withImportSlot } from '../../platform/sheet/import-slot.js';
import { serverTimeZone } from '../../platform/sheet/sheet-cells.js';
import type { SheetUpload } from '../../platform/sheet/sheet-reader.js';
import { readSheetForm, registerSheetUpload } from '../../platform/sheet/sheet-upload.js';
import { SHEET_CONTENT_TYPES, attachment } from '../../platform/sheet/sheet-writer.js';
import type { UserAdminService } from './user-admin.service.js';
import { parseUserFile, userSheet } from './user-file.rules.js';

const IMPORT_MAX_BYTES = 5 * 1024 * 1024;
const CSV_TYPE = 'text/csv';

/**
 * The uploaded user file: the multipart form every import takes, or (the form older consoles
 * send) the file as the raw body typed by its content type.
 */
async function readUserUpload(req: FastifyRequest): Promise<SheetUpload> {
  if (req.isMultipart()) return (await readSheetForm(req, IMPORT_MAX_BYTES)).file;
  if (!Buffer.isBuffer(req.body)) throw new AppError('importFileMissing', 400);
  const csv = (req.headers['content-type'] ?? '').startsWith(CSV_TYPE);
  return { filename: csv ? 'users.csv' : 'users.xlsx', content: req.body };
}

export function userAdminRoutes(users: UserAdminService): FastifyPluginAsyncZod {
  return async (app) => {
    await registerSheetUpload(app, IMPORT_MAX_BYTES);
    app.addContentTypeParser(
      [CSV_TYPE, SHEET_CONTENT_TYPES.xlsx],
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
        const { format } = req.query;
        const timeZone = req.query.tz ?? serverTimeZone();
        return reply
          .type(SHEET_CONTENT_TYPES[format])
          .header('content-disposition', attachment(`users.${format}`))
          .send(userSheet(rows, format, req.lang, timeZone));
      },
    );

    app.post(
      '/sys/user/importExcel',
      {
        config: { permission: 'account:user:import', operateType: 'import' },
        schema: {
          tags: ['user-admin'],
          summary:
            'Create users from an XLSX or CSV file (multipart: file; or the file as the body, typed by its content type); 429 while another import of the company runs',
          response: responses(ZUserImportResult),
        },
      },
      async (req) =>
        // The slot is taken before the upload is read: a refused import costs no memory.
        withImportSlot(req.scope.companyId, async () => {
          const rows = await parseUserFile(await readUserUpload(req));
          if (!rows) throw new AppError('adminImportBadFile', 400);
          const result = await users.importRows(req.scope, rows, req.lang);
          return ok(result, message(req.lang, 'adminImported', { created: result.created }));
        }),
    );
  };
}
