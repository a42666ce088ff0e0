import {
  BASE_IMPORT_MAX_BYTES,
  ZLocation,
  ZLocationEdit,
  ZLocationExportQuery,
  ZLocationInput,
  ZLocationListQuery,
  ZLocationPage,
  ZLocationTree,
  ZIdQuery,
  ZIdsQuery,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery } from '../../platform/http/envelope.js';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { registerSheetUpload } from '../../platform/sheet/sheet-upload.js';
import { importHandler, importSchema, sendExport } from './base-data.routes.js';
import type { LocationService } from './location.service.js';

const tags = ['base data'];

/** 基础数据 → 位置, JeecgBoot-style paths. */
export function locationRoutes(locations: LocationService): FastifyPluginAsyncZod {
  return async (app) => {
    await registerSheetUpload(app, BASE_IMPORT_MAX_BYTES);

    app.get(
      '/base/location/list',
      {
        config: { permission: 'base:location:list' },
        schema: {
          tags,
          summary:
            'Locations of the company, paged, each with its path; filter by name, kind, parent',
          querystring: ZLocationListQuery,
          response: responses(ZLocationPage),
        },
      },
      async (req) => ok(await locations.list(req.scope, req.query)),
    );

    app.get(
      '/base/location/tree',
      {
        config: { permission: 'base:location:list' },
        schema: {
          tags,
          summary: `The company's whole location tree (at most 5,000), flat, each node after its parent`,
          querystring: ZNoQuery,
          response: responses(ZLocationTree),
        },
      },
      async (req) => ok(await locations.nodes(req.scope)),
    );

    app.get(
      '/base/location/queryById',
      {
        config: { permission: 'base:location:list' },
        schema: {
          tags,
          summary: 'One location',
          querystring: ZIdQuery,
          response: responses(ZLocation),
        },
      },
      async (req) => ok(await locations.get(req.scope, req.query.id)),
    );

    app.post(
      '/base/location/add',
      {
        config: { permission: 'base:location:add', operateType: 'add' },
        schema: {
          tags,
          summary: 'Add a location (a site under a region or at the top, a cabinet under a site)',
          body: ZLocationInput,
          response: responses(ZLocation),
        },
      },
      async (req) => ok(await locations.add(req.scope, req.body), message(req.lang, 'baseSaved')),
    );

    app.put(
      '/base/location/edit',
      {
        config: { permission: 'base:location:edit', operateType: 'edit' },
        schema: {
          tags,
          summary: 'Edit or move a location (not under itself or a descendant)',
          body: ZLocationEdit,
          response: responses(ZLocation),
        },
      },
      async (req) => ok(await locations.edit(req.scope, req.body), message(req.lang, 'baseSaved')),
    );

    app.delete(
      '/base/location/delete',
      {
        config: { permission: 'base:location:delete', operateType: 'delete' },
        schema: {
          tags,
          summary: 'Delete a location; 409 while a device is there or it has children',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const count = await locations.delete(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'baseDeleted', { count }));
      },
    );

    app.delete(
      '/base/location/deleteBatch',
      {
        config: { permission: 'base:location:delete', operateType: 'delete' },
        schema: {
          tags,
          summary:
            'Delete locations (comma-separated ids, all or none; children with their parent); 409 while a device is at one or one keeps children',
          querystring: ZIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const count = await locations.delete(req.scope, req.query.ids);
        return ok(null, message(req.lang, 'baseDeleted', { count }));
      },
    );

    app.get(
      '/base/location/exportXls',
      {
        config: { permission: 'base:location:export' },
        schema: {
          tags,
          summary:
            'The locations of the filter as an XLSX or CSV attachment (streamed), parents as paths',
          querystring: ZLocationExportQuery,
        },
      },
      async (req, reply) => sendExport(reply, locations.exportFile(req.scope, req.query, req.lang)),
    );

    app.post(
      '/base/location/importExcel',
      {
        config: { permission: 'base:location:import', operateType: 'import' },
        schema: importSchema('locations (parent by path such as 华东/上海站, or by a unique name)'),
      },
      importHandler((req, file, dryRun) =>
        locations.importSheet(req.scope, file, dryRun, req.lang),
      ),
    );
  };
}
