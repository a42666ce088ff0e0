import path from 'node:path';
import { FileStore } from '../../platform/files/file-store.js';
import { StorageReservations } from '../../platform/files/storage-quota.js';
import type { Platform, ServerModule } from '../../platform/module.js';
import { firmwareMenu } from './firmware.menu.js';
import './firmware.messages.js';
import { FirmwareRepository } from './firmware.repository.js';
import { firmwareRoutes } from './firmware.routes.js';
import { FirmwareService } from './firmware.service.js';

export function firmwareModule({ config, db, permissions, clock }: Platform) {
  const firmware = new FirmwareService(
    new FirmwareRepository(db),
    new FileStore(path.join(config.dataDir, 'files')),
    permissions,
    clock,
    config.publicUrl ?? `http://localhost:${config.port}`,
    config.companyStorageQuota,
    new StorageReservations(),
  );
  const module: ServerModule = {
    name: 'firmware',
    routes: [firmwareRoutes(firmware)],
    menu: firmwareMenu,
    start: () => firmware.init(),
  };
  return { firmware, module };
}
