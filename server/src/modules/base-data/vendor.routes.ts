import {
  BASE_IMPORT_MAX_BYTES,
  ZVendor,
  ZVendorEdit,
  ZVendorExportQuery,
  ZVendorInput,
  ZVendorListQuery,
  ZVendorPage,
  ZIdQuery,
  ZIdsQuery,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { registerSheetUpload } from '../../platform/sheet/sheet-upload.js';
import { importHandler, importSchema, sendExport } from './base-data.routes.js';
import type { VendorService } from './vendor.service.js';

const tags = ['base data'];

/** 基础数据 → 供应商, JeecgBoot-style paths. */
export function vendorRoutes(vendors: VendorService): FastifyPluginAsyncZod {
  return async (app) => {
    await registerSheetUpload(app, BASE_IMPORT_MAX_BYTES);

    app.get(
      '/base/vendor/list',
      {
        config: { permission: 'base:vendor:list' },
        schema: {
          tags,
          summary: 'Vendors of the company, paged; filter by name and kind',
          querystring: ZVendorListQuery,
          response: responses(ZVendorPage),
        },
      },
      async (req) => ok(await vendors.list(req.scope, req.query)),
    );

    app.get(
      '/base/vendor/queryById',
      {
        config: { permission: 'base:vendor:list' },
        schema: {
          tags,
          summary: 'One vendor',
          querystring: ZIdQuery,
          response: responses(ZVendor),
        },
      },
      async (req) => ok(await vendors.get(req.scope, req.query.id)),
    );

    app.post(
      '/base/vendor/add',
      {
        config: { permission: 'base:vendor:add', operateType: 'add' },
        schema: { tags, summary: 'Add a vendor', body: ZVendorInput, response: responses(ZVendor) },
      },
      async (req) => ok(await vendors.add(req.scope, req.body), message(req.lang, 'baseSaved')),
    );

    app.put(
      '/base/vendor/edit',
      {
        config: { permission: 'base:vendor:edit', operateType: 'edit' },
        schema: { tags, summary: 'Edit a vendor', body: ZVendorEdit, response: responses(ZVendor) },
      },
      async (req) => ok(await vendors.edit(req.scope, req.body), message(req.lang, 'baseSaved')),
    );

    app.delete(
      '/base/vendor/delete',
      {
        config: { permission: 'base:vendor:delete', operateType: 'delete' },
        schema: {
          tags,
          summary: 'Delete a vendor; 409 while a device references it',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const count = await vendors.delete(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'baseDeleted', { count }));
      },
    );

    app.delete(
      '/base/vendor/deleteBatch',
      {
        config: { permission: 'base:vendor:delete', operateType: 'delete' },
        schema: {
          tags,
          summary:
            'Delete vendors (comma-separated ids, all or none); 409 while a device references one',
          querystring: ZIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const count = await vendors.delete(req.scope, req.query.ids);
        return ok(null, message(req.lang, 'baseDeleted', { count }));
      },
    );

    app.get(
      '/base/vendor/exportXls',
      {
        config: { permission: 'base:vendor:export' },
        schema: {
          tags,
          summary: 'The vendors of the filter as an XLSX or CSV attachment (streamed)',
          querystring: ZVendorExportQuery,
        },
      },
      async (req, reply) => sendExport(reply, vendors.exportFile(req.scope, req.query, req.lang)),
    );

    app.post(
      '/base/vendor/importExcel',
      {
        config: { permission: 'base:vendor:import', operateType: 'import' },
        schema: importSchema('vendors'),
      },
      importHandler((req, file, dryRun) => vendors.importSheet(req.scope, file, dryRun, req.lang)),
    );
  };
}
