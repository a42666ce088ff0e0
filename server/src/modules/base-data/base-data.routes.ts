import {
  BASE_IMPORT_MAX_BYTES,
  ZBaseImportQuery,
  ZBaseImportResult,
  type TBaseImportResult,
} from '@blrms/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/http/app-error.js';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { withImportSlot } from '../../platform/sheet/import-slot.js';
import { readSheetForm } from '../../platform/sheet/sheet-upload.js';
import type { SheetUpload } from '../../platform/sheet/sheet-reader.js';
import { attachment } from '../../platform/sheet/sheet-writer.js';
import type { ExportFile } from './base-data-export.service.js';

/**
 * What the goods, location and vendor routes share: the import form and its answer, the export
 * attachment. Each entity's routes are in its own file.
 */

export const importSchema = (entity: string) => ({
  tags: ['base data'],
  summary: `Import ${entity} from an XLSX or CSV file (multipart: file, dryRun, default true); good rows are kept, bad rows reported by row and column; 429 while another import of the company runs`,
  consumes: ['multipart/form-data'],
  response: responses(ZBaseImportResult),
});

/** Runs an import in the company's import slot (taken before the upload is read). */
export function importHandler(
  run: (req: FastifyRequest, file: SheetUpload, dryRun: boolean) => Promise<TBaseImportResult>,
) {
  return (req: FastifyRequest) =>
    withImportSlot(req.scope.companyId, async () => {
      const { file, fields } = await readSheetForm(req, BASE_IMPORT_MAX_BYTES);
      const parsed = ZBaseImportQuery.safeParse(fields);
      if (!parsed.success) throw new AppError('baseImportFieldInvalid', 400, { field: 'dryRun' });
      const dryRun = parsed.data.dryRun === 'true';
      const result = await run(req, file, dryRun);
      return ok(
        result,
        message(req.lang, dryRun ? 'baseImportChecked' : 'baseImportDone', {
          valid: result.valid,
          invalid: result.invalid,
          imported: result.imported,
          existing: result.existing,
        }),
      );
    });
}

export function sendExport(reply: FastifyReply, file: ExportFile) {
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', attachment(file.filename))
    .header('cache-control', 'no-store')
    .send(file.body);
}
