import type { Platform, ServerModule } from '../../platform/module.js';
import { userAdminRoutes } from './user-admin.routes.js';
import { UserAdminService } from './user-admin.service.js';
import './user.messages.js';
import { userMenu } from './user.menu.js';
import { UserRepository } from './user.repository.js';
import { userRoutes } from './user.routes.js';
import { UserService } from './user.service.js';

export function userModule({ db, sessions, permissions, hasher, bus, clock }: Platform) {
  const repository = new UserRepository(db);
  const users = new UserService(repository, sessions, hasher, bus, clock);
  const userAdmin = new UserAdminService(repository, permissions, sessions, hasher, bus, clock);
  const module: ServerModule = {
    name: 'user',
    routes: [userRoutes(users), userAdminRoutes(userAdmin)],
    menu: userMenu,
  };
  return { users, module };
}
