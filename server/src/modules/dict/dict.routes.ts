import { ZDictCode, ZDictItem } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import type { DictService } from './dict.service.js';

export function dictRoutes(dicts: DictService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sys/dict/getDictItems/:dictCode',
      {
        config: { authenticated: true },
        schema: {
          tags: ['dict'],
          summary: 'Enabled items of a dictionary, labelled in the request language',
          params: z.object({ dictCode: ZDictCode }),
          querystring: ZNoQuery,
          response: responses(z.array(ZDictItem)),
        },
      },
      async (req) => ok(await dicts.items(req.params.dictCode, req.lang)),
    );
  };
}
