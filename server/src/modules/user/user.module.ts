import type { Platform, ServerModule } from '../../platform/module.js';
import type { DepartService } from '../depart/depart.service.js';
import type { RoleService } from '../role/role.service.js';
import { userAdminRoutes } from './user-admin.routes.js';
import { UserAdminService } from './user-admin.service.js';
import './user.messages.js';
import { userMenu } from './user.menu.js';
import { UserRepository } from './user.repository.js';
import { userRoutes } from './user.routes.js';
import { UserService } from './user.service.js';

export function userModule(
  { db, sessions, permissions, hasher, bus, clock }: Platform,
  deps: { roles: RoleService; departs: DepartService },
) {
  const repository = new UserRepository(db);
  const users = new UserService(repository, deps.roles, deps.departs, sessions, hasher, bus, clock);
  const userAdmin = new UserAdminService(
    repository,
    users,
    permissions,
    sessions,
    hasher,
    bus,
    clock,
  );
  deps.departs.onMembersLeave(({ userIds, orgCode }, trx) =>
    users.clearCurrentDepart(userIds, orgCode, trx),
  );
  const module: ServerModule = {
    name: 'user',
    routes: [userRoutes(users), userAdminRoutes(userAdmin)],
    menu: userMenu,
  };
  return { users, module };
}
