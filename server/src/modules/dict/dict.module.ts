import type { Platform, ServerModule } from '../../platform/module.js';
import './dict.messages.js';
import { DictRepository } from './dict.repository.js';
import { dictRoutes } from './dict.routes.js';
import { DictService } from './dict.service.js';

export function dictModule({ db }: Platform) {
  const dicts = new DictService(new DictRepository(db));
  const module: ServerModule = { name: 'dict', routes: [dictRoutes(dicts)] };
  return { dicts, module };
}
