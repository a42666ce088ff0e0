import type { FileStorage } from '../../platform/files/file-storage.js';
import type { Platform, ServerModule } from '../../platform/module.js';
import { firmwareMenu } from './firmware.menu.js';
import './firmware.messages.js';
import { FirmwareRepository } from './firmware.repository.js';
import { firmwareRoutes } from './firmware.routes.js';
import { FirmwareService } from './firmware.service.js';

export function firmwareModule({ config, db, permissions, clock }: Platform, files: FileStorage) {
  const firmware = new FirmwareService(
    new FirmwareRepository(db),
    files.blobs,
    permissions,
    clock,
    config.publicUrl ?? `http://localhost:${config.port}`,
    files.quota.defaultQuota,
    // Shared with every feature that stores files: one company's uploads count together.
    files.quota.reservations,
  );
  const module: ServerModule = {
    name: 'firmware',
    routes: [firmwareRoutes(firmware)],
    menu: firmwareMenu,
    start: () => firmware.init(),
  };
  return { firmware, module };
}
