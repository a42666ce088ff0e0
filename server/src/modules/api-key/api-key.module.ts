import type { Platform, ServerModule } from '../../platform/module.js';
import { apiKeyMenu } from './api-key.menu.js';
import './api-key.messages.js';
import { ApiKeyRepository } from './api-key.repository.js';
import { apiKeyRoutes } from './api-key.routes.js';
import { ApiKeyService } from './api-key.service.js';

export function apiKeyModule({ config, db, permissions, bus, clock }: Platform) {
  const apiKeys = new ApiKeyService(new ApiKeyRepository(db), permissions, bus, clock, {
    ratePerMinute: config.apiKeyRateLimit,
  });
  const module: ServerModule = {
    name: 'api-key',
    routes: [apiKeyRoutes(apiKeys)],
    menu: apiKeyMenu,
  };
  return { apiKeys, module };
}
