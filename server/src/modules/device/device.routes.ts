import fastifyMultipart from '@fastify/multipart';
import {
  IMPORT_FILE_MAX_BYTES,
  ZBatchResult,
  ZDevice,
  ZDeviceCreate,
  ZDeviceEdit,
  ZDeviceExportQuery,
  ZDeviceImportQuery,
  ZDeviceImportResult,
  ZDeviceMoveToGroup,
  ZDeviceQuery,
  ZDeviceSummary,
  ZIdQuery,
  ZIdsQuery,
  pageOf,
} from '@blrms/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/http/app-error.js';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { ActionOrigin, DeviceService, ImportFile } from './device.service.js';

const tags = ['device'];
const MB = 1024 * 1024;

function originOf(req: FastifyRequest): ActionOrigin {
  return { requestUrl: req.url.split('?')[0] ?? req.url, ip: req.ip };
}

/** The file and the fields of an import form, whatever their order; fields may also be in the query. */
async function readImportForm(req: FastifyRequest) {
  if (!req.isMultipart()) throw new AppError('importFileMissing', 400);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.query as Record<string, string>)) fields[k] = v;
  let file: ImportFile | undefined;
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      try {
        file = { filename: part.filename, content: await part.toBuffer() };
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 413) {
          throw new AppError('importFileTooLarge', 413, { mb: IMPORT_FILE_MAX_BYTES / MB });
        }
        throw error;
      }
    } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  if (!file) throw new AppError('importFileMissing', 400);
  const parsed = ZDeviceImportQuery.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('importFieldInvalid', 400, { field: String(issue?.path[0] ?? 'request') });
  }
  return { file, tokenId: parsed.data.tokenId, dryRun: parsed.data.dryRun === 'true' };
}

export function deviceRoutes(devices: DeviceService): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyMultipart, {
      limits: { fileSize: IMPORT_FILE_MAX_BYTES, files: 1, fields: 10, fieldSize: 1024 },
      throwFileSizeLimit: true,
    });

    app.get(
      '/device/device/list',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Devices of the company the caller may see, filtered, sorted and paged',
          querystring: ZDeviceQuery,
          response: responses(pageOf(ZDevice)),
        },
      },
      async (req) => ok(await devices.list(req.scope, req.query)),
    );

    app.get(
      '/device/device/queryById',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'One device (404 outside the company or the caller’s data rules)',
          querystring: ZIdQuery,
          response: responses(ZDevice),
        },
      },
      async (req) => ok(await devices.get(req.scope, req.query.id)),
    );

    app.post(
      '/device/device/add',
      {
        config: { permission: 'device:add' },
        schema: {
          tags,
          summary: 'Register a device under a token key of the company; the token’s owner owns it',
          body: ZDeviceCreate,
          response: responses(ZDevice),
        },
      },
      async (req) =>
        ok(await devices.add(req.scope, req.body, originOf(req)), message(req.lang, 'saved')),
    );

    app.put(
      '/device/device/edit',
      {
        config: { permission: 'device:edit' },
        schema: {
          tags,
          summary: 'Change a device (its SN and token cannot change)',
          body: ZDeviceEdit,
          response: responses(ZDevice),
        },
      },
      async (req) =>
        ok(await devices.edit(req.scope, req.body, originOf(req)), message(req.lang, 'saved')),
    );

    app.delete(
      '/device/device/delete',
      {
        config: { permission: 'device:delete' },
        schema: {
          tags,
          summary: 'Delete a device',
          querystring: ZIdQuery,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok(
          { count: await devices.delete(req.scope, [req.query.id], originOf(req)) },
          message(req.lang, 'deleted'),
        ),
    );

    app.delete(
      '/device/device/deleteBatch',
      {
        config: { permission: 'device:delete' },
        schema: {
          tags,
          summary: 'Delete devices; all or nothing',
          querystring: ZIdsQuery,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok(
          { count: await devices.delete(req.scope, req.query.ids, originOf(req)) },
          message(req.lang, 'deleted'),
        ),
    );

    app.put(
      '/device/device/moveToGroup',
      {
        config: { permission: 'device:edit' },
        schema: {
          tags,
          summary: 'Move devices to a group, or out of any group (groupId null)',
          body: ZDeviceMoveToGroup,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok(
          { count: await devices.moveToGroup(req.scope, req.body, originOf(req)) },
          message(req.lang, 'saved'),
        ),
    );

    app.get(
      '/device/device/exportXls',
      {
        config: { permission: 'device:export' },
        schema: {
          tags,
          summary: 'The devices of the current filter as an XLSX or CSV attachment (streamed)',
          querystring: ZDeviceExportQuery,
        },
      },
      async (req, reply) => {
        const file = devices.exportFile(req.scope, req.query, req.lang);
        return reply
          .header('content-type', file.contentType)
          .header(
            'content-disposition',
            `attachment; filename="${file.filename}"; filename*=UTF-8''${file.filename}`,
          )
          .header('cache-control', 'no-store')
          .send(file.body);
      },
    );

    app.post(
      '/device/device/importExcel',
      {
        config: { permission: 'device:import' },
        schema: {
          tags,
          summary:
            'Import devices from an XLSX or CSV file (multipart: file, tokenId, dryRun); good rows are kept, bad rows reported',
          consumes: ['multipart/form-data'],
          response: responses(ZDeviceImportResult),
        },
      },
      async (req) => {
        const form = await readImportForm(req);
        return ok(
          await devices.import(
            req.scope,
            form.file,
            { tokenId: form.tokenId, dryRun: form.dryRun },
            originOf(req),
            req.lang,
          ),
        );
      },
    );

    app.get(
      '/device/device/summary',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary: 'Dashboard figures of the devices the caller may see',
          querystring: ZNoQuery,
          response: responses(ZDeviceSummary),
        },
      },
      async (req) => ok(await devices.summary(req.scope, req.lang)),
    );
  };
}
