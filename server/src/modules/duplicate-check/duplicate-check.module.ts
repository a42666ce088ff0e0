import type { Platform, ServerModule } from '../../platform/module.js';
import './duplicate-check.messages.js';
import { DuplicateCheckRepository } from './duplicate-check.repository.js';
import { duplicateCheckRoutes } from './duplicate-check.routes.js';
import { DuplicateCheckService } from './duplicate-check.service.js';

export function duplicateCheckModule({ db }: Platform): ServerModule {
  return {
    name: 'duplicate-check',
    routes: [duplicateCheckRoutes(new DuplicateCheckService(new DuplicateCheckRepository(db)))],
  };
}
