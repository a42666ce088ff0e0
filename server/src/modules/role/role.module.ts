import type { Platform, ServerModule } from '../../platform/module.js';
import './role.messages.js';
import { roleMenu } from './role.menu.js';
import { RoleRepository } from './role.repository.js';
import { roleRoutes } from './role.routes.js';
import { RoleService } from './role.service.js';

export function roleModule({ db, permissions, dataRules, bus, clock }: Platform) {
  const roles = new RoleService(new RoleRepository(db), permissions, dataRules, bus, clock);
  const module: ServerModule = { name: 'role', routes: [roleRoutes(roles)], menu: roleMenu };
  return { roles, module };
}
