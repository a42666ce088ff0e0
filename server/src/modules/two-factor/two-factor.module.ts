import type { Platform, ServerModule } from '../../platform/module.js';
import './two-factor.messages.js';
import { TwoFactorRepository } from './two-factor.repository.js';
import { twoFactorRoutes } from './two-factor.routes.js';
import { TwoFactorService } from './two-factor.service.js';

export function twoFactorModule({ db, hasher, clock }: Platform) {
  const twoFactor = new TwoFactorService(new TwoFactorRepository(db), hasher, clock);
  const module: ServerModule = { name: 'two-factor', routes: [twoFactorRoutes(twoFactor)] };
  return { twoFactor, module };
}
