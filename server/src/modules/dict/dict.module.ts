import type { Platform, ServerModule } from '../../platform/module.js';
import { dictMenu } from './dict.menu.js';
import './dict.messages.js';
import { DictRepository } from './dict.repository.js';
import { dictRoutes } from './dict.routes.js';
import { DictService } from './dict.service.js';

export function dictModule({ db, permissions, bus, clock }: Platform) {
  const dicts = new DictService(new DictRepository(db), permissions, bus, clock);
  const module: ServerModule = { name: 'dict', routes: [dictRoutes(dicts)], menu: dictMenu };
  return { dicts, module };
}
