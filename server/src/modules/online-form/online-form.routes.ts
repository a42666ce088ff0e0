import {
  ONLINE_FORM_IMPORT_MAX_BYTES,
  ZIdQuery,
  ZOnlineFormCode,
  ZOnlineForm,
  ZOnlineFormEdit,
  ZOnlineFormIdBody,
  ZOnlineFormIdQuery,
  ZOnlineFormInput,
  ZOnlineFormListQuery,
  ZOnlineFormMeta,
  ZOnlineFormPage,
  ZOnlineHistoryPage,
  ZOnlineHistoryQuery,
  ZOnlineRecord,
  ZOnlineRecordAdd,
  ZOnlineRecordEdit,
  ZOnlineRecordExportQuery,
  ZOnlineRecordIds,
  ZOnlineRecordImportResult,
  ZOnlineRecordListQuery,
  ZOnlineRecordPage,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { withImportSlot } from '../../platform/sheet/import-slot.js';
import { serverTimeZone } from '../../platform/sheet/sheet-cells.js';
import { readSheetForm, registerSheetUpload } from '../../platform/sheet/sheet-upload.js';
import { SHEET_CONTENT_TYPES, attachment } from '../../platform/sheet/sheet-writer.js';
import type { OnlineFormService } from './online-form.service.js';

const tags = ['online-form'];
const ZCode = z.object({ code: ZOnlineFormCode }).strict();

/** Form definitions: the `online:form:*` codes of the 表单定义 page. */
export function onlineFormRoutes(forms: OnlineFormService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/online/form/list',
      {
        config: { permission: 'online:form:list' },
        schema: {
          tags,
          summary: 'The company’s form definitions, paged',
          querystring: ZOnlineFormListQuery,
          response: responses(ZOnlineFormPage),
        },
      },
      async (req) => ok(await forms.list(req.scope, req.query)),
    );
    app.get(
      '/online/form/queryById',
      {
        config: { permission: 'online:form:list' },
        schema: {
          tags,
          summary: 'One form definition',
          querystring: ZOnlineFormIdQuery,
          response: responses(ZOnlineForm),
        },
      },
      async (req) => ok(await forms.get(req.scope, req.query.id)),
    );
    app.post(
      '/online/form/add',
      {
        config: { permission: 'online:form:add', operateType: 'add' },
        schema: {
          tags,
          summary: 'Define a form (a draft until published)',
          body: ZOnlineFormInput,
          response: responses(ZOnlineForm),
        },
      },
      async (req) =>
        ok(await forms.add(req.scope, req.body, req.lang), message(req.lang, 'onlineFormSaved')),
    );
    app.put(
      '/online/form/edit',
      {
        config: { permission: 'online:form:edit', operateType: 'edit' },
        schema: {
          tags,
          summary:
            'Change a definition; records keep their values (removed fields hidden, type changes shown as text)',
          body: ZOnlineFormEdit,
          response: responses(ZOnlineForm),
        },
      },
      async (req) =>
        ok(await forms.edit(req.scope, req.body, req.lang), message(req.lang, 'onlineFormSaved')),
    );
    app.delete(
      '/online/form/delete',
      {
        config: { permission: 'online:form:delete', operateType: 'delete' },
        schema: {
          tags,
          summary: 'Delete a form without records (unpublished first)',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await forms.delete(req.scope, req.query.id);
        return ok(null, message(req.lang, 'onlineFormDeleted'));
      },
    );
    app.put(
      '/online/form/publish',
      {
        config: { permission: 'online:form:publish', operateType: 'edit' },
        schema: {
          tags,
          summary:
            'Add the form’s page and buttons (online:{code}:list|add|edit|delete|export) to the company’s menu',
          body: ZOnlineFormIdBody,
          response: responses(ZOnlineForm),
        },
      },
      async (req) =>
        ok(await forms.publish(req.scope, req.body.id), message(req.lang, 'onlineFormPublished')),
    );
    app.put(
      '/online/form/unpublish',
      {
        config: { permission: 'online:form:publish', operateType: 'edit' },
        schema: {
          tags,
          summary: 'Remove the form’s page (and its grants) from the menu; records stay',
          body: ZOnlineFormIdBody,
          response: responses(ZOnlineForm),
        },
      },
      async (req) =>
        ok(
          await forms.unpublish(req.scope, req.body.id),
          message(req.lang, 'onlineFormUnpublished'),
        ),
    );
  };
}

/**
 * A published form's records. The permission code depends on the form, so the routes are
 * `authenticated` and each handler starts with `forms.open(scope, code, action)`, which checks
 * `online:{code}:{action}` and is the only way to the record operations.
 */
export function onlineRecordRoutes(forms: OnlineFormService): FastifyPluginAsyncZod {
  return async (app) => {
    await registerSheetUpload(app, ONLINE_FORM_IMPORT_MAX_BYTES);
    const access = { authenticated: true, apiKey: true } as const;

    app.get(
      '/online/data/:code/meta',
      {
        config: access,
        schema: {
          tags,
          summary: 'The form’s definition and what the caller may do (online:{code}:list)',
          params: ZCode,
          querystring: ZNoQuery,
          response: responses(ZOnlineFormMeta),
        },
      },
      async (req) => ok(await (await forms.open(req.scope, req.params.code, 'list')).meta()),
    );
    app.get(
      '/online/data/:code/list',
      {
        config: access,
        schema: {
          tags,
          summary: 'Records, searched by searchable fields, sorted and paged (online:{code}:list)',
          params: ZCode,
          querystring: ZOnlineRecordListQuery,
          response: responses(ZOnlineRecordPage),
        },
      },
      async (req) =>
        ok(await (await forms.open(req.scope, req.params.code, 'list')).list(req.query, req.lang)),
    );
    app.get(
      '/online/data/:code/queryById',
      {
        config: access,
        schema: {
          tags,
          summary: 'One record (online:{code}:list)',
          params: ZCode,
          querystring: ZIdQuery,
          response: responses(ZOnlineRecord),
        },
      },
      async (req) =>
        ok(
          await (await forms.open(req.scope, req.params.code, 'list')).get(req.query.id, req.lang),
        ),
    );
    app.post(
      '/online/data/:code/add',
      {
        config: { ...access, operateType: 'add' },
        schema: {
          tags,
          summary: 'Add a record, checked against the definition (online:{code}:add)',
          params: ZCode,
          body: ZOnlineRecordAdd,
          response: responses(ZOnlineRecord),
        },
      },
      async (req) =>
        ok(
          await (await forms.open(req.scope, req.params.code, 'add')).add(req.body.data, req.lang),
          message(req.lang, 'onlineRecordSaved'),
        ),
    );
    app.put(
      '/online/data/:code/edit',
      {
        config: { ...access, operateType: 'edit' },
        schema: {
          tags,
          summary:
            'Change a record, checked against the fields as defined now (online:{code}:edit)',
          params: ZCode,
          body: ZOnlineRecordEdit,
          response: responses(ZOnlineRecord),
        },
      },
      async (req) =>
        ok(
          await (
            await forms.open(req.scope, req.params.code, 'edit')
          ).edit(req.body.id, req.body.data, req.lang),
          message(req.lang, 'onlineRecordSaved'),
        ),
    );
    app.delete(
      '/online/data/:code/delete',
      {
        config: { ...access, operateType: 'delete' },
        schema: {
          tags,
          summary: 'Delete a record (online:{code}:delete)',
          params: ZCode,
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const count = await (
          await forms.open(req.scope, req.params.code, 'delete')
        ).delete([req.query.id]);
        return ok(null, message(req.lang, 'onlineRecordDeleted', { count }));
      },
    );
    app.delete(
      '/online/data/:code/deleteBatch',
      {
        config: { ...access, operateType: 'delete' },
        schema: {
          tags,
          summary: 'Delete records (JSON body { ids }; online:{code}:delete)',
          params: ZCode,
          body: ZOnlineRecordIds,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const records = await forms.open(req.scope, req.params.code, 'delete');
        const count = await records.delete(req.body.ids);
        return ok(null, message(req.lang, 'onlineRecordDeleted', { count }));
      },
    );
    app.get(
      '/online/data/:code/history',
      {
        config: access,
        schema: {
          tags,
          summary: 'Who changed which values, newest first (online:{code}:list)',
          params: ZCode,
          querystring: ZOnlineHistoryQuery,
          response: responses(ZOnlineHistoryPage),
        },
      },
      async (req) =>
        ok(
          await (await forms.open(req.scope, req.params.code, 'list')).history(req.query, req.lang),
        ),
    );
    app.get(
      '/online/data/:code/exportXls',
      {
        config: access,
        schema: {
          tags,
          summary:
            'Records as XLSX or CSV, columns named by the fields’ labels (online:{code}:export)',
          params: ZCode,
          querystring: ZOnlineRecordExportQuery,
        },
      },
      async (req, reply) => {
        const records = await forms.open(req.scope, req.params.code, 'export');
        const { body, format } = await records.exportSheet(
          req.query,
          req.lang,
          req.query.tz ?? serverTimeZone(),
        );
        return reply
          .type(SHEET_CONTENT_TYPES[format])
          .header('content-disposition', attachment(`${req.params.code}.${format}`))
          .send(body);
      },
    );
    app.post(
      '/online/data/:code/importExcel',
      {
        config: { ...access, operateType: 'import' },
        schema: {
          tags,
          summary:
            'Import records from XLSX/CSV (multipart: file; dryRun=true previews); good rows kept, errors by row and column (online:{code}:add)',
          params: ZCode,
          consumes: ['multipart/form-data'],
          response: responses(ZOnlineRecordImportResult),
        },
      },
      async (req) => {
        // Checked before the slot and the upload: a refused import costs nothing.
        const records = await forms.open(req.scope, req.params.code, 'add');
        return withImportSlot(req.scope.companyId, async () => {
          const { file, fields } = await readSheetForm(req, ONLINE_FORM_IMPORT_MAX_BYTES);
          const dryRun = fields.dryRun !== 'false';
          const result = await records.importSheet(file, dryRun, req.lang, serverTimeZone());
          const counts = {
            valid: result.valid,
            invalid: result.invalid,
            imported: result.imported,
          };
          return ok(
            result,
            message(req.lang, dryRun ? 'onlineImportPreview' : 'onlineImportDone', counts),
          );
        });
      },
    );
  };
}
