import fastifyMultipart from '@fastify/multipart';
import {
  ZBatchResult,
  ZFirmware,
  ZFirmwareDownloadQuery,
  ZFirmwareDownloadUrl,
  ZFirmwareEdit,
  ZFirmwarePage,
  ZFirmwareQuery,
  ZFirmwareSettings,
  ZFirmwareUploadFields,
  ZId,
  ZIdQuery,
  ZStorageUsage,
  type TFirmware,
  type TFirmwareUploadFields,
} from '@blrms/contracts';
import type { FastifyRequest } from 'fastify';
import { validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { parseRange } from './byte-range.rules.js';
import type { FirmwareService, FirmwareUpload } from './firmware.service.js';

const tags = ['firmware'];
/** Room for the form fields and part headers around the file in a multipart body. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const ZDownloadParams = z.object({ id: ZId }).strict();

const checkFields = validatorCompiler({
  schema: ZFirmwareUploadFields,
  method: 'POST',
  url: '/api/firmware/upload',
  httpPart: 'body',
});

/** The form fields, checked like a JSON body would be: 400 naming the field and the rule. */
function uploadFields(fields: Record<string, string>): TFirmwareUploadFields {
  const result = checkFields(fields) as { value?: TFirmwareUploadFields; error?: unknown };
  if (result.error) {
    throw Object.assign(new Error('invalid upload fields'), {
      statusCode: 400,
      validation: result.error,
      validationContext: 'body',
    });
  }
  return result.value as TFirmwareUploadFields;
}

/**
 * Walks the multipart body: fields first, then the part `file`, which is handed to `store` as a
 * stream while it arrives (never held in memory).
 */
async function receiveUpload(
  req: FastifyRequest,
  maxBytes: number,
  store: (fields: TFirmwareUploadFields, file: FirmwareUpload) => Promise<TFirmware>,
  tooLarge: () => AppError,
  room: number,
  noRoom: () => AppError,
): Promise<TFirmware> {
  if (!req.isMultipart()) throw new AppError('firmwareFileMissing', 400);
  const declared = Number(req.headers['content-length']);
  if (declared > maxBytes + FORM_OVERHEAD_BYTES) throw tooLarge();
  // Even with the most the form can carry around it, the file would not fit in the quota.
  if (declared - FORM_OVERHEAD_BYTES > room) throw noRoom();
  const fields: Record<string, string> = {};
  let stored: TFirmware | undefined;
  const parts = req.parts({
    // One byte over the limit reaches the store, which refuses it; busboy cuts off the rest.
    limits: { fileSize: maxBytes + 1, files: 1, fields: 10, fieldSize: 16 * 1024 },
  });
  for await (const part of parts) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') fields[part.fieldname] = part.value;
    } else if (part.fieldname !== 'file' || stored) {
      throw new AppError('firmwareFileMissing', 400);
    } else {
      stored = await store(uploadFields(fields), { filename: part.filename, content: part.file });
    }
  }
  if (!stored) throw new AppError('firmwareFileMissing', 400);
  return stored;
}

function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function firmwareRoutes(firmware: FirmwareService): FastifyPluginAsyncZod {
  return async (app) => {
    // The store enforces the size limit (with the limit in the message), not busboy.
    await app.register(fastifyMultipart, { throwFileSizeLimit: false });

    app.get(
      '/firmware/list',
      {
        config: { permission: 'firmware:list' },
        schema: {
          tags,
          summary: 'Firmware of the company, newest first; `inUse` while a campaign installs it',
          querystring: ZFirmwareQuery,
          response: responses(ZFirmwarePage),
        },
      },
      async (req) => ok(await firmware.list(req.scope, req.query)),
    );

    app.get(
      '/firmware/queryById',
      {
        config: { permission: 'firmware:list' },
        schema: {
          tags,
          summary: 'One firmware of the company',
          querystring: ZIdQuery,
          response: responses(ZFirmware),
        },
      },
      async (req) => ok(await firmware.get(req.scope, req.query.id)),
    );

    app.post(
      '/firmware/upload',
      {
        config: { permission: 'firmware:upload' },
        schema: {
          tags,
          summary:
            "Upload a firmware (multipart: series, version, releaseNotes, then file); streamed to storage with its sha256; 413 over the size limit or past the company's storage quota, 409 for an existing version",
          consumes: ['multipart/form-data'],
          response: responses(ZFirmware),
        },
      },
      async (req, reply) => {
        const maxBytes = await firmware.maxBytes();
        const reservation = await firmware.reserveStorage(req.scope);
        try {
          const stored = await receiveUpload(
            req,
            maxBytes,
            (fields, file) => firmware.upload(req.scope, fields, file, maxBytes, reservation),
            () => firmware.tooLarge(maxBytes),
            reservation.room,
            () => firmware.quotaExceeded(reservation.exceeded()),
          );
          return ok(stored, message(req.lang, 'firmwareUploaded'));
        } catch (error) {
          // The rest of a refused upload is not read: the connection closes after the answer.
          reply.header('connection', 'close');
          throw error;
        } finally {
          reservation.release();
        }
      },
    );

    app.put(
      '/firmware/edit',
      {
        config: { permission: 'firmware:edit' },
        schema: {
          tags,
          summary: 'Change the release notes (the file, series and version cannot change)',
          body: ZFirmwareEdit,
          response: responses(ZFirmware),
        },
      },
      async (req) => ok(await firmware.edit(req.scope, req.body), message(req.lang, 'saved')),
    );

    app.delete(
      '/firmware/delete',
      {
        config: { permission: 'firmware:delete' },
        schema: {
          tags,
          summary: 'Delete a firmware and its file (409 while an unfinished campaign installs it)',
          querystring: ZIdQuery,
          response: responses(ZBatchResult),
        },
      },
      async (req) => {
        await firmware.delete(req.scope, req.query.id);
        return ok({ count: 1 }, message(req.lang, 'deleted'));
      },
    );

    app.get(
      '/firmware/downloadUrl',
      {
        config: { permission: 'firmware:list' },
        schema: {
          tags,
          summary: 'A signed download link to the file, valid for 15 minutes',
          querystring: ZIdQuery,
          response: responses(ZFirmwareDownloadUrl),
        },
      },
      async (req) => ok(await firmware.downloadUrl(req.scope, req.query.id)),
    );

    app.get(
      '/firmware/storage',
      {
        config: { permission: 'firmware:list' },
        schema: {
          tags,
          summary: "The company's stored bytes and its storage quota (null: unlimited)",
          querystring: ZNoQuery,
          response: responses(ZStorageUsage),
        },
      },
      async (req) => ok(await firmware.storage(req.scope)),
    );

    app.get(
      '/firmware/settings',
      {
        config: { permission: 'firmware:settings' },
        schema: {
          tags,
          summary: 'The upload size limit (platform-wide)',
          querystring: ZNoQuery,
          response: responses(ZFirmwareSettings),
        },
      },
      async (req) => ok(await firmware.settings(req.scope)),
    );

    app.put(
      '/firmware/settings',
      {
        config: { permission: 'firmware:settings' },
        schema: {
          tags,
          summary: 'Set the upload size limit (platform administrators)',
          body: ZFirmwareSettings,
          response: responses(ZFirmwareSettings),
        },
      },
      async (req) =>
        ok(
          await firmware.setSettings(req.scope, req.body),
          message(req.lang, 'firmwareSettingsSaved'),
        ),
    );

    app.route({
      method: ['GET', 'HEAD'],
      url: '/firmware/download/:id',
      // The signature in the query is the authority: devices have no session.
      config: { public: true },
      schema: {
        tags,
        summary:
          'The firmware file through a signed, expiring link (403 when tampered or expired); HTTP Range for resuming, ETag = sha256',
        params: ZDownloadParams,
        querystring: ZFirmwareDownloadQuery,
      },
      handler: async (req, reply) => {
        const file = await firmware.authorizeDownload(req.params.id, req.query.exp, req.query.sig);
        const etag = `"${file.sha256}"`;
        const ifRange = req.headers['if-range'];
        // A resume against another file than the one the client has gets the whole new file.
        const range =
          ifRange === undefined || ifRange === etag
            ? parseRange(req.headers.range, file.size)
            : null;
        reply.header('accept-ranges', 'bytes').header('etag', etag);
        if (range === 'unsatisfiable') {
          reply.header('content-range', `bytes */${file.size}`);
          throw new AppError('firmwareRangeInvalid', 416);
        }
        const { start, end } = range ?? { start: 0, end: file.size - 1 };
        reply
          .code(range ? 206 : 200)
          .header('content-type', 'application/octet-stream')
          .header('content-disposition', attachment(file.fileName))
          .header('cache-control', 'private, no-transform')
          .header('content-length', end - start + 1);
        if (range) reply.header('content-range', `bytes ${start}-${end}/${file.size}`);
        if (req.method === 'HEAD') return reply.send();
        return reply.send(await firmware.read(file, start, end));
      },
    });
  };
}
