import type { Platform, ServerModule } from '../../platform/module.js';
import type { DictService } from '../dict/dict.service.js';
import './position.messages.js';
import { positionMenu } from './position.menu.js';
import { PositionRepository } from './position.repository.js';
import { positionRoutes } from './position.routes.js';
import { PositionService } from './position.service.js';

export function positionModule(
  { db, clock }: Platform,
  deps: { dicts: DictService },
): ServerModule {
  return {
    name: 'position',
    routes: [positionRoutes(new PositionService(new PositionRepository(db), deps.dicts, clock))],
    menu: positionMenu,
  };
}
