import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../http/app-error.js';
import type { SheetUpload } from './sheet-reader.js';

/**
 * The one upload form of every import: multipart/form-data with the sheet in the part `file`
 * (what the console and JeecgBoot send; the form has room for one file, whatever its part is
 * named); the other parts and the query string carry the options.
 */

const MB = 1024 * 1024;

export interface SheetForm {
  file: SheetUpload;
  fields: Record<string, string>;
}

/** Registers the multipart parser of an import route's plugin, the file capped at `maxBytes`. */
export async function registerSheetUpload(app: FastifyInstance, maxBytes: number): Promise<void> {
  await app.register(fastifyMultipart, {
    limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 1024 },
    throwFileSizeLimit: true,
  });
}

/**
 * The file and the fields of an import form, whatever their order; fields may also be in the
 * query. 400 without a file, 413 when the file passes `maxBytes`.
 */
export async function readSheetForm(req: FastifyRequest, maxBytes: number): Promise<SheetForm> {
  if (!req.isMultipart()) throw new AppError('importFileMissing', 400);
  const fields: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.query as Record<string, string>)) fields[k] = v;
  let file: SheetUpload | undefined;
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      try {
        file = { filename: part.filename, content: await part.toBuffer() };
      } catch (error) {
        if ((error as { statusCode?: number }).statusCode === 413) {
          throw new AppError('importFileTooLarge', 413, { mb: maxBytes / MB });
        }
        throw error;
      }
    } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
  }
  if (!file) throw new AppError('importFileMissing', 400);
  return { file, fields };
}
