import type { Platform, ServerModule } from '../../platform/module.js';
import type { AuthService } from '../auth/auth.service.js';
import type { LogService } from '../log/log.service.js';
import type { UserService } from '../user/user.service.js';
import './sso.messages.js';
import { SsoRepository } from './sso.repository.js';
import { ssoRoutes } from './sso.routes.js';
import { SsoService } from './sso.service.js';

export function ssoModule(
  { config, db, clock, log }: Platform,
  deps: { users: UserService; auth: AuthService; logs: LogService; loginRateLimit: number },
): ServerModule {
  const sso = new SsoService(
    config.sso,
    new SsoRepository(db),
    deps.users,
    deps.auth,
    deps.logs,
    clock,
    log,
  );
  return { name: 'sso', routes: [ssoRoutes(sso, deps.loginRateLimit)] };
}
