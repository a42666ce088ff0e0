import type { Platform, ServerModule } from '../../platform/module.js';
import type { LogService } from '../log/log.service.js';
import type { TwoFactorService } from '../two-factor/two-factor.service.js';
import type { UserService } from '../user/user.service.js';
import './auth.messages.js';
import { AuthRepository } from './auth.repository.js';
import { authRoutes, type AuthRateLimits } from './auth.routes.js';
import { AuthService } from './auth.service.js';
import { CaptchaService, type CaptchaText } from './captcha.service.js';

export interface AuthModuleOptions {
  /** Captcha code generator; tests pass a deterministic one. */
  captchaText?: CaptchaText;
  /** Serves the login slowdown; tests pass one that records the delay instead of waiting. */
  loginDelay?: (ms: number) => Promise<void>;
  rateLimits?: Partial<AuthRateLimits>;
}

export function authModule(
  { config, db, permissions, sessions, hasher, clock }: Platform,
  deps: { users: UserService; twoFactor: TwoFactorService; logs: LogService },
  options: AuthModuleOptions,
) {
  const repository = new AuthRepository(db);
  const auth = new AuthService(
    repository,
    new CaptchaService(repository, clock, options.captchaText),
    deps.users,
    deps.twoFactor,
    permissions,
    sessions,
    deps.logs,
    hasher,
    clock,
    { captchaRequired: config.captcha, ...(options.loginDelay && { delay: options.loginDelay }) },
  );
  const limits: AuthRateLimits = { login: 30, captcha: 60, ...options.rateLimits };
  const module: ServerModule = { name: 'auth', routes: [authRoutes(auth, limits)] };
  return { auth, limits, module };
}
