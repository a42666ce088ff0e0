import type { Platform, ServerModule } from '../../platform/module.js';
import { healthRoutes } from './health.routes.js';
import { HealthService } from './health.service.js';

export function healthModule({ db }: Platform): ServerModule {
  return { name: 'health', routes: [healthRoutes(new HealthService(db))] };
}
