import type { Platform, ServerModule } from '../../platform/module.js';
import { PermissionAdminRepository } from './permission-admin.repository.js';
import { permissionAdminRoutes } from './permission-admin.routes.js';
import { PermissionAdminService } from './permission-admin.service.js';
import './permission.messages.js';
import { permissionMenu } from './permission.menu.js';
import { permissionRoutes } from './permission.routes.js';
import { UserPermissionService } from './permission.service.js';

export function permissionModule({ db, permissions, bus, clock }: Platform): ServerModule {
  return {
    name: 'permission',
    routes: [
      permissionRoutes(new UserPermissionService(permissions)),
      permissionAdminRoutes(
        new PermissionAdminService(new PermissionAdminRepository(db), permissions, bus, clock),
      ),
    ],
    menu: permissionMenu,
  };
}
