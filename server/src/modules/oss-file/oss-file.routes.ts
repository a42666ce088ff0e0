import fastifyMultipart from '@fastify/multipart';
import {
  ZBatchResult,
  ZIdQuery,
  ZOssFile,
  ZOssFileContentQuery,
  ZOssFileLink,
  ZOssFileLinkQuery,
  ZOssFilePage,
  ZOssFileQuery,
  ZOssFileStorage,
  ZId,
  type TOssFile,
} from '@blrms/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../platform/http/app-error.js';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { contentDisposition, previewContentType } from './content-type.rules.js';
import type { OssFileContent, OssFileService, OssFileUpload } from './oss-file.service.js';

const tags = ['file storage'];
/** Room for the part headers around the file in a multipart body. */
const FORM_OVERHEAD_BYTES = 16 * 1024;

const ZContentParams = z.object({ id: ZId }).strict();

/**
 * What a preview may do once it is open: nothing but show itself. Images and text are also
 * sandboxed (no script, no same-origin access, even if opened as a page); Chromium does not show
 * a PDF in a sandboxed document, so a PDF gets the policy without `sandbox`.
 */
const PREVIEW_POLICY = "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'";
const PREVIEW_FRAMES = "frame-ancestors 'self'";

/**
 * Walks the multipart body and hands the part `file` to `store` as a stream while it arrives
 * (never held in memory). A body that declares more than the file limit or the quota's room is
 * refused before a byte is read.
 */
async function receiveUpload(
  req: FastifyRequest,
  files: OssFileService,
  room: number,
  noRoom: () => AppError,
  store: (file: OssFileUpload) => Promise<TOssFile>,
): Promise<TOssFile> {
  if (!req.isMultipart()) throw new AppError('ossFileMissing', 400);
  const declared = Number(req.headers['content-length']);
  if (declared > files.maxBytes + FORM_OVERHEAD_BYTES) throw files.tooLarge();
  if (declared - FORM_OVERHEAD_BYTES > room) throw noRoom();
  let stored: TOssFile | undefined;
  const parts = req.parts({
    // One byte over the limit reaches the store, which refuses it; busboy cuts off the rest.
    limits: { fileSize: files.maxBytes + 1, files: 1, fields: 5, fieldSize: 1024 },
  });
  for await (const part of parts) {
    if (part.type === 'field') continue;
    if (part.fieldname !== 'file' || stored) throw new AppError('ossFileMissing', 400);
    stored = await store({ filename: part.filename, content: part.file });
  }
  if (!stored) throw new AppError('ossFileMissing', 400);
  return stored;
}

/** Sends the bytes: as an attachment (always safe), or inline for the types a preview shows. */
async function sendFile(
  files: OssFileService,
  file: OssFileContent,
  mode: 'download' | 'preview',
  req: FastifyRequest,
  reply: FastifyReply,
) {
  const inlineType = mode === 'preview' ? previewContentType(file.contentType) : null;
  reply
    .header('content-length', file.size)
    .header('etag', `"${file.sha256}"`)
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff');
  if (inlineType) {
    const sandbox = file.contentType === 'application/pdf' ? '' : '; sandbox';
    reply
      .header('content-type', inlineType)
      .header('content-disposition', contentDisposition('inline', file.name))
      .header('content-security-policy', `${PREVIEW_POLICY}; ${PREVIEW_FRAMES}${sandbox}`)
      // The console shows previews in a frame of its own origin; nobody else may frame them.
      .header('x-frame-options', 'SAMEORIGIN');
  } else {
    reply
      .header('content-type', 'application/octet-stream')
      .header('content-disposition', contentDisposition('attachment', file.name))
      .header('content-security-policy', `${PREVIEW_POLICY}; frame-ancestors 'none'; sandbox`);
  }
  if (req.method === 'HEAD') return reply.send();
  return reply.send(await files.read(file));
}

export function ossFileRoutes(files: OssFileService): FastifyPluginAsyncZod {
  return async (app) => {
    // The store enforces the size limit (with the limit in the message), not busboy.
    await app.register(fastifyMultipart, { throwFileSizeLimit: false });

    app.get(
      '/sys/oss/file/list',
      {
        config: { permission: 'system:oss:file:list' },
        schema: {
          tags,
          summary: 'Files of the company, paged; search by name (substring) and content type',
          querystring: ZOssFileQuery,
          response: responses(ZOssFilePage),
        },
      },
      async (req) => ok(await files.list(req.scope, req.query)),
    );

    app.get(
      '/sys/oss/file/queryById',
      {
        config: { permission: 'system:oss:file:list' },
        schema: {
          tags,
          summary: 'One file of the company',
          querystring: ZIdQuery,
          response: responses(ZOssFile),
        },
      },
      async (req) => ok(await files.get(req.scope, req.query.id)),
    );

    app.get(
      '/sys/oss/file/storage',
      {
        config: { permission: 'system:oss:file:list' },
        schema: {
          tags,
          summary:
            "The company's stored bytes (firmware and files), its storage quota (null: unlimited) and the per-file limit",
          querystring: ZNoQuery,
          response: responses(ZOssFileStorage),
        },
      },
      async (req) => ok(await files.storage(req.scope)),
    );

    app.post(
      '/sys/oss/file/upload',
      {
        config: { permission: 'system:oss:file:upload' },
        schema: {
          tags,
          summary:
            "Upload a file (multipart part `file`), streamed to storage with its sha256; the type is read from its bytes. 413 over the per-file limit or past the company's storage quota, with nothing kept",
          consumes: ['multipart/form-data'],
          response: responses(ZOssFile),
        },
      },
      async (req, reply) => {
        const reservation = await files.reserveStorage(req.scope);
        try {
          const stored = await receiveUpload(
            req,
            files,
            reservation.room,
            () => files.quotaExceeded(reservation.exceeded()),
            (file) => files.upload(req.scope, file, reservation),
          );
          return ok(stored, message(req.lang, 'ossFileUploaded', { name: stored.name }));
        } catch (error) {
          // The rest of a refused upload is not read: the connection closes after the answer.
          reply.header('connection', 'close');
          throw error;
        } finally {
          reservation.release();
        }
      },
    );

    app.delete(
      '/sys/oss/file/delete',
      {
        config: { permission: 'system:oss:file:delete' },
        schema: {
          tags,
          summary: 'Delete a file and its bytes; its size leaves the company quota at once',
          querystring: ZIdQuery,
          response: responses(ZBatchResult),
        },
      },
      async (req) => {
        await files.delete(req.scope, req.query.id);
        return ok({ count: 1 }, message(req.lang, 'deleted'));
      },
    );

    app.get(
      '/sys/oss/file/download',
      {
        config: { permission: 'system:oss:file:download' },
        schema: {
          tags,
          summary:
            'The file as an attachment (application/octet-stream, RFC 5987 file name, nosniff); for API clients',
          querystring: ZIdQuery,
        },
      },
      async (req, reply) =>
        sendFile(files, await files.forDownload(req.scope, req.query.id), 'download', req, reply),
    );

    app.get(
      '/sys/oss/file/url',
      {
        config: { permission: 'system:oss:file:download' },
        schema: {
          tags,
          summary:
            'A signed link to download or preview the file, valid for 5 minutes (415 for a preview of a type never shown inline)',
          querystring: ZOssFileLinkQuery,
          response: responses(ZOssFileLink),
        },
      },
      async (req) => ok(await files.link(req.scope, req.query.id, req.query.mode)),
    );

    app.route({
      method: ['GET', 'HEAD'],
      url: '/sys/oss/file/content/:id',
      // The signature in the query is the authority: <img> and frames cannot send the session header.
      config: { public: true },
      schema: {
        tags,
        summary:
          'The file through a signed link (403 when tampered or expired): inline with a strict CSP for images, PDF and text (as text/plain) in preview mode, else an attachment',
        params: ZContentParams,
        querystring: ZOssFileContentQuery,
      },
      handler: async (req, reply) => {
        const file = await files.authorizeLink({ id: req.params.id, ...req.query });
        return sendFile(files, file, req.query.mode, req, reply);
      },
    });
  };
}
