import type { Platform, ServerModule } from '../../platform/module.js';
import type { DepartService } from '../depart/depart.service.js';
import type { RoleService } from '../role/role.service.js';
import type { UserService } from '../user/user.service.js';
import './company.messages.js';
import { companyMenu } from './company.menu.js';
import { CompanyRepository } from './company.repository.js';
import { companyRoutes } from './company.routes.js';
import { CompanyService } from './company.service.js';

export function companyModule(
  { db, permissions, sessions, bus, hasher, clock }: Platform,
  deps: { users: UserService; departs: DepartService; roles: RoleService },
) {
  const companies = new CompanyService(
    new CompanyRepository(db),
    permissions,
    deps.users,
    deps.departs,
    deps.roles,
    sessions,
    bus,
    hasher,
    clock,
  );
  const module: ServerModule = {
    name: 'company',
    routes: [companyRoutes(companies)],
    menu: companyMenu,
  };
  return { companies, module };
}
