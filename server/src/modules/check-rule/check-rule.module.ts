import type { Platform, ServerModule } from '../../platform/module.js';
import { checkRuleMenu } from './check-rule.menu.js';
import './check-rule.messages.js';
import { CheckRuleRepository } from './check-rule.repository.js';
import { checkRuleRoutes } from './check-rule.routes.js';
import { CheckRuleService } from './check-rule.service.js';

export function checkRuleModule({ db, clock }: Platform): ServerModule {
  return {
    name: 'check-rule',
    routes: [checkRuleRoutes(new CheckRuleService(new CheckRuleRepository(db), clock))],
    menu: checkRuleMenu,
  };
}
