import { ZSiteList, ZSiteListQuery, ZSiteMapSettings } from '@blrms/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ZNoQuery, ok, responses } from '../../platform/http/envelope.js';
import { message } from '../../platform/http/messages.js';
import type { SiteMapService } from './site-map.service.js';

const tags = ['site-map'];

export function siteMapRoutes(sites: SiteMapService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/base/sites/list',
      {
        config: { permission: 'base:sites:view' },
        schema: {
          tags,
          summary: `The company's sites with coordinates and the health of their devices (at most 5,000)`,
          querystring: ZSiteListQuery,
          response: responses(ZSiteList),
        },
      },
      async (req) => ok(await sites.list(req.scope, req.query)),
    );

    app.get(
      '/base/sites/settings',
      {
        config: { permission: 'base:sites:view' },
        schema: {
          tags,
          summary: 'The tile server the map draws on (platform-wide; null: the shipped outline)',
          querystring: ZNoQuery,
          response: responses(ZSiteMapSettings),
        },
      },
      async () => ok(await sites.settings()),
    );

    app.put(
      '/base/sites/settings',
      {
        config: { permission: 'base:sites:settings', operateType: 'edit' },
        schema: {
          tags,
          summary: 'Set the tile server (platform administrators)',
          body: ZSiteMapSettings,
          response: responses(ZSiteMapSettings),
        },
      },
      async (req) =>
        ok(await sites.setSettings(req.scope, req.body), message(req.lang, 'siteMapSettingsSaved')),
    );
  };
}
