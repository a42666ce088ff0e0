import {
  DICT_IMPORT_MAX_BYTES,
  ZDict,
  ZDictCode,
  ZDictEdit,
  ZDictExportQuery,
  ZDictImportResult,
  ZDictInput,
  ZDictItem,
  ZDictItemCheckQuery,
  ZDictItemEdit,
  ZDictItemInput,
  ZDictItemListQuery,
  ZDictItemPage,
  ZDictItemRow,
  ZDictListQuery,
  ZDictPage,
  ZId,
  ZIdQuery,
  ZIdsQuery,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { withImportSlot } from '../../platform/sheet/import-slot.js';
import { serverTimeZone } from '../../platform/sheet/sheet-cells.js';
import { readSheetForm, registerSheetUpload } from '../../platform/sheet/sheet-upload.js';
import { SHEET_CONTENT_TYPES, attachment } from '../../platform/sheet/sheet-writer.js';
import type { DictService } from './dict.service.js';

const tags = ['dict'];
const ZIdParams = z.object({ id: ZId }).strict();

/** JeecgBoot's SysDictController and SysDictItemController paths. */
export function dictRoutes(dicts: DictService): FastifyPluginAsyncZod {
  return async (app) => {
    await registerSheetUpload(app, DICT_IMPORT_MAX_BYTES);

    app.get(
      '/sys/dict/getDictItems/:dictCode',
      {
        config: { authenticated: true },
        schema: {
          tags,
          summary:
            'Enabled items of a dictionary (the company’s own of the code, else the platform’s), labelled in the request language',
          params: z.object({ dictCode: ZDictCode }),
          querystring: ZNoQuery,
          response: responses(z.array(ZDictItem)),
        },
      },
      async (req) => ok(await dicts.items(req.params.dictCode, req.lang, req.scope.companyId)),
    );

    app.get(
      '/sys/dict/list',
      {
        config: { permission: 'system:dict:list' },
        schema: {
          tags,
          summary: 'The company’s dictionaries and the platform’s, paged',
          querystring: ZDictListQuery,
          response: responses(ZDictPage),
        },
      },
      async (req) => ok(await dicts.list(req.scope, req.query)),
    );

    app.post(
      '/sys/dict/add',
      {
        config: { permission: 'system:dict:add', operateType: 'add' },
        schema: { tags, summary: 'Add a dictionary', body: ZDictInput, response: responses(ZDict) },
      },
      async (req) => ok(await dicts.add(req.scope, req.body), message(req.lang, 'dictSaved')),
    );

    app.put(
      '/sys/dict/edit',
      {
        config: { permission: 'system:dict:edit', operateType: 'edit' },
        schema: { tags, summary: 'Edit a dictionary', body: ZDictEdit, response: responses(ZDict) },
      },
      async (req) => ok(await dicts.edit(req.scope, req.body), message(req.lang, 'dictSaved')),
    );

    app.delete(
      '/sys/dict/delete',
      {
        config: { permission: 'system:dict:delete', operateType: 'delete' },
        schema: {
          tags,
          summary: 'Move a dictionary to the recycle bin',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await dicts.delete(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'dictDeleted'));
      },
    );

    app.delete(
      '/sys/dict/deleteBatch',
      {
        config: { permission: 'system:dict:delete', operateType: 'delete' },
        schema: {
          tags,
          summary: 'Move dictionaries to the recycle bin (comma-separated ids, all or none)',
          querystring: ZIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await dicts.delete(req.scope, req.query.ids);
        return ok(null, message(req.lang, 'dictDeleted'));
      },
    );

    app.get(
      '/sys/dict/deleteList',
      {
        config: { permission: 'system:dict:recycle' },
        schema: {
          tags,
          summary: 'The recycle bin: deleted dictionaries, paged',
          querystring: ZDictListQuery,
          response: responses(ZDictPage),
        },
      },
      async (req) => ok(await dicts.recycleBin(req.scope, req.query)),
    );

    app.put(
      '/sys/dict/back/:id',
      {
        config: { permission: 'system:dict:recycle', operateType: 'edit' },
        schema: {
          tags,
          summary: 'Restore a dictionary from the recycle bin',
          params: ZIdParams,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await dicts.restore(req.scope, req.params.id);
        return ok(null, message(req.lang, 'dictRestored'));
      },
    );

    app.delete(
      '/sys/dict/deletePhysic/:id',
      {
        config: { permission: 'system:dict:recycle', operateType: 'delete' },
        schema: {
          tags,
          summary: 'Delete a dictionary of the recycle bin for good, with its items',
          params: ZIdParams,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await dicts.purge(req.scope, req.params.id);
        return ok(null, message(req.lang, 'dictPurged'));
      },
    );

    app.get(
      '/sys/dict/refleshCache',
      {
        config: { permission: 'system:dict:list' },
        schema: {
          tags,
          summary: 'Every server node drops its cached dictionary items (JeecgBoot’s spelling)',
          querystring: ZNoQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await dicts.refreshCaches();
        return ok(null, message(req.lang, 'dictCacheRefreshed'));
      },
    );

    app.get(
      '/sys/dict/exportXls',
      {
        config: { permission: 'system:dict:export' },
        schema: {
          tags,
          summary: 'The company’s own dictionaries with their items, one row per item, as XLSX',
          querystring: ZDictExportQuery,
        },
      },
      async (req, reply) => {
        const body = await dicts.exportSheet(
          req.scope,
          req.query,
          req.lang,
          req.query.tz ?? serverTimeZone(),
        );
        return reply
          .type(SHEET_CONTENT_TYPES.xlsx)
          .header('content-disposition', attachment('dictionaries.xlsx'))
          .send(body);
      },
    );

    app.post(
      '/sys/dict/importExcel',
      {
        config: { permission: 'system:dict:import', operateType: 'import' },
        schema: {
          tags,
          summary:
            'Add dictionaries and add or update their items from an XLSX (multipart: file); all or nothing, row errors reported; 429 while another import of the company runs',
          consumes: ['multipart/form-data'],
          response: responses(ZDictImportResult),
        },
      },
      async (req) =>
        // The slot is taken before the upload is read: a refused import costs no memory.
        withImportSlot(req.scope.companyId, async () => {
          const { file } = await readSheetForm(req, DICT_IMPORT_MAX_BYTES);
          const result = await dicts.importSheet(req.scope, file, req.lang);
          return ok(
            result,
            result.applied
              ? message(req.lang, 'dictImportApplied', {
                  dicts: result.dictsCreated,
                  items: result.itemsCreated,
                  updated: result.itemsUpdated,
                })
              : message(req.lang, 'dictImportRefused', { count: result.errors.length }),
          );
        }),
    );

    app.get(
      '/sys/dictItem/list',
      {
        config: { permission: 'system:dict:list' },
        schema: {
          tags,
          summary: 'Items of a dictionary, paged',
          querystring: ZDictItemListQuery,
          response: responses(ZDictItemPage),
        },
      },
      async (req) => ok(await dicts.itemList(req.scope, req.query)),
    );

    app.post(
      '/sys/dictItem/add',
      {
        config: { permission: 'system:dict:edit', operateType: 'add' },
        schema: {
          tags,
          summary: 'Add an item to a dictionary',
          body: ZDictItemInput,
          response: responses(ZDictItemRow),
        },
      },
      async (req) =>
        ok(await dicts.addItem(req.scope, req.body), message(req.lang, 'dictItemSaved')),
    );

    app.put(
      '/sys/dictItem/edit',
      {
        config: { permission: 'system:dict:edit', operateType: 'edit' },
        schema: {
          tags,
          summary: 'Edit a dictionary item',
          body: ZDictItemEdit,
          response: responses(ZDictItemRow),
        },
      },
      async (req) =>
        ok(await dicts.editItem(req.scope, req.body), message(req.lang, 'dictItemSaved')),
    );

    app.delete(
      '/sys/dictItem/delete',
      {
        config: { permission: 'system:dict:edit', operateType: 'delete' },
        schema: {
          tags,
          summary: 'Delete a dictionary item',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await dicts.deleteItems(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'dictItemDeleted'));
      },
    );

    app.delete(
      '/sys/dictItem/deleteBatch',
      {
        config: { permission: 'system:dict:edit', operateType: 'delete' },
        schema: {
          tags,
          summary: 'Delete dictionary items (comma-separated ids, all or none)',
          querystring: ZIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await dicts.deleteItems(req.scope, req.query.ids);
        return ok(null, message(req.lang, 'dictItemDeleted'));
      },
    );

    app.get(
      '/sys/dictItem/dictItemCheck',
      {
        config: { permission: 'system:dict:list' },
        schema: {
          tags,
          summary: 'Whether a value is free in a dictionary (409 when another item has it)',
          querystring: ZDictItemCheckQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        await dicts.itemCheck(req.scope, req.query);
        return ok(null, message(req.lang, 'dictItemValueAvailable'));
      },
    );
  };
}
