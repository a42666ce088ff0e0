import {
  BASE_IMPORT_MAX_BYTES,
  ZGoods,
  ZGoodsEdit,
  ZGoodsExportQuery,
  ZGoodsInput,
  ZGoodsListQuery,
  ZGoodsPage,
  ZIdQuery,
  ZIdsQuery,
  ZOssFileLink,
} from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import { registerSheetUpload } from '../../platform/sheet/sheet-upload.js';
import { importHandler, importSchema, sendExport } from './base-data.routes.js';
import type { GoodsService } from './goods.service.js';

const tags = ['base data'];

/** 基础数据 → 物料, JeecgBoot-style paths. */
export function goodsRoutes(goods: GoodsService): FastifyPluginAsyncZod {
  return async (app) => {
    await registerSheetUpload(app, BASE_IMPORT_MAX_BYTES);

    app.get(
      '/base/goods/list',
      {
        config: { permission: 'base:goods:list' },
        schema: {
          tags,
          summary: 'Goods of the company, paged; filter by model (or revision), series, enabled',
          querystring: ZGoodsListQuery,
          response: responses(ZGoodsPage),
        },
      },
      async (req) => ok(await goods.list(req.scope, req.query)),
    );

    app.get(
      '/base/goods/queryById',
      {
        config: { permission: 'base:goods:list' },
        schema: {
          tags,
          summary: 'One goods row',
          querystring: ZIdQuery,
          response: responses(ZGoods),
        },
      },
      async (req) => ok(await goods.get(req.scope, req.query.id)),
    );

    app.post(
      '/base/goods/add',
      {
        config: { permission: 'base:goods:add', operateType: 'add' },
        schema: { tags, summary: 'Add goods', body: ZGoodsInput, response: responses(ZGoods) },
      },
      async (req) => ok(await goods.add(req.scope, req.body), message(req.lang, 'baseSaved')),
    );

    app.put(
      '/base/goods/edit',
      {
        config: { permission: 'base:goods:edit', operateType: 'edit' },
        schema: { tags, summary: 'Edit goods', body: ZGoodsEdit, response: responses(ZGoods) },
      },
      async (req) => ok(await goods.edit(req.scope, req.body), message(req.lang, 'baseSaved')),
    );

    app.delete(
      '/base/goods/delete',
      {
        config: { permission: 'base:goods:delete', operateType: 'delete' },
        schema: {
          tags,
          summary: 'Delete goods; 409 while a device references them',
          querystring: ZIdQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const count = await goods.delete(req.scope, [req.query.id]);
        return ok(null, message(req.lang, 'baseDeleted', { count }));
      },
    );

    app.delete(
      '/base/goods/deleteBatch',
      {
        config: { permission: 'base:goods:delete', operateType: 'delete' },
        schema: {
          tags,
          summary:
            'Delete goods (comma-separated ids, all or none); 409 while a device references one',
          querystring: ZIdsQuery,
          response: responses(z.null()),
        },
      },
      async (req) => {
        const count = await goods.delete(req.scope, req.query.ids);
        return ok(null, message(req.lang, 'baseDeleted', { count }));
      },
    );

    app.get(
      '/base/goods/datasheetUrl',
      {
        config: { permission: 'base:goods:list' },
        schema: {
          tags,
          summary:
            "A signed link (5 minutes) to download the goods' datasheet from the file library",
          querystring: ZIdQuery,
          response: responses(ZOssFileLink),
        },
      },
      async (req) => ok(await goods.datasheetLink(req.scope, req.query.id)),
    );

    app.get(
      '/base/goods/exportXls',
      {
        config: { permission: 'base:goods:export' },
        schema: {
          tags,
          summary: 'The goods of the filter as an XLSX or CSV attachment (streamed)',
          querystring: ZGoodsExportQuery,
        },
      },
      async (req, reply) => sendExport(reply, goods.exportFile(req.scope, req.query, req.lang)),
    );

    app.post(
      '/base/goods/importExcel',
      {
        config: { permission: 'base:goods:import', operateType: 'import' },
        schema: importSchema('goods'),
      },
      importHandler((req, file, dryRun) => goods.importSheet(req.scope, file, dryRun, req.lang)),
    );
  };
}
