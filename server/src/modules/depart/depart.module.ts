import type { Platform, ServerModule } from '../../platform/module.js';
import './depart.messages.js';
import { departMenu } from './depart.menu.js';
import { DepartRepository } from './depart.repository.js';
import { departRoutes } from './depart.routes.js';
import { DepartService } from './depart.service.js';

export function departModule({ db, permissions, bus, clock }: Platform) {
  const departs = new DepartService(new DepartRepository(db), permissions, bus, clock);
  const module: ServerModule = {
    name: 'depart',
    routes: [departRoutes(departs)],
    menu: departMenu,
  };
  return { departs, module };
}
