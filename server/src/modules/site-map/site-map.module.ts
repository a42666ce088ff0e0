import type { Platform, ServerModule } from '../../platform/module.js';
import { registerTileSourceHook } from './site-map.hook.js';
import { siteMapMenu } from './site-map.menu.js';
import './site-map.messages.js';
import { SiteMapRepository } from './site-map.repository.js';
import { siteMapRoutes } from './site-map.routes.js';
import { SiteMapService } from './site-map.service.js';

/** Sites on a map (issue 20): reads locations, devices and alarms; writes only its setting. */
export function siteMapModule({ db, permissions, dataRules, clock }: Platform) {
  const sites = new SiteMapService(new SiteMapRepository(db), permissions, dataRules, clock);
  const module: ServerModule = {
    name: 'site-map',
    routes: [siteMapRoutes(sites)],
    menu: siteMapMenu,
    hooks: (app) => registerTileSourceHook(app, sites),
  };
  return { sites, module };
}
