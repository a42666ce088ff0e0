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
  ZDeviceTagCount,
  ZDeviceTagsChange,
  ZIdQuery,
  ZIdsQuery,
  pageOf,
} from '@blrms/contracts';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../platform/http/app-error.js';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { withImportSlot } from '../../platform/sheet/import-slot.js';
import { readSheetForm, registerSheetUpload } from '../../platform/sheet/sheet-upload.js';
import { attachment } from '../../platform/sheet/sheet-writer.js';
import type { ActionOrigin, DeviceService } from './device.service.js';

const tags = ['device'];

function originOf(req: FastifyRequest): ActionOrigin {
  return { requestUrl: req.url.split('?')[0] ?? req.url, ip: req.ip };
}

/** The file and the options of an import form (the sheet module's one upload form). */
async function readImportForm(req: FastifyRequest) {
  const { file, fields } = await readSheetForm(req, IMPORT_FILE_MAX_BYTES);
  const parsed = ZDeviceImportQuery.safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError('importFieldInvalid', 400, { field: String(issue?.path[0] ?? 'request') });
  }
  return { file, tokenId: parsed.data.tokenId, dryRun: parsed.data.dryRun === 'true' };
}

export function deviceRoutes(devices: DeviceService): FastifyPluginAsyncZod {
  return async (app) => {
    await registerSheetUpload(app, IMPORT_FILE_MAX_BYTES);

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
      '/device/tags',
      {
        config: { permission: 'device:list' },
        schema: {
          tags,
          summary:
            'The company’s device tags with their device counts, most used first (at most 500)',
          querystring: ZNoQuery,
          response: responses(z.array(ZDeviceTagCount)),
        },
      },
      async (req) => ok(await devices.tagCounts(req.scope)),
    );

    app.post(
      '/device/tags/add',
      {
        config: { permission: 'device:tag' },
        schema: {
          tags,
          summary:
            'Add tags to devices; all or nothing (a device over 20 tags refuses the request); count: devices changed',
          body: ZDeviceTagsChange,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok(
          { count: await devices.addTags(req.scope, req.body, originOf(req)) },
          message(req.lang, 'saved'),
        ),
    );

    app.post(
      '/device/tags/remove',
      {
        config: { permission: 'device:tag' },
        schema: {
          tags,
          summary: 'Take tags from devices; count: devices changed',
          body: ZDeviceTagsChange,
          response: responses(ZBatchResult),
        },
      },
      async (req) =>
        ok(
          { count: await devices.removeTags(req.scope, req.body, originOf(req)) },
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
          .header('content-disposition', attachment(file.filename))
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
            'Import devices from an XLSX or CSV file (multipart: file, tokenId, dryRun); good rows are kept, bad rows reported; 429 while another import of the company runs',
          consumes: ['multipart/form-data'],
          response: responses(ZDeviceImportResult),
        },
      },
      async (req) =>
        // The slot is taken before the upload is read: a refused import costs no memory.
        withImportSlot(req.scope.companyId, async () => {
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
        }),
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
