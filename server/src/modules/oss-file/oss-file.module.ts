import type { FileStorage } from '../../platform/files/file-storage.js';
import type { Platform, ServerModule } from '../../platform/module.js';
import { ossFileMenu } from './oss-file.menu.js';
import './oss-file.messages.js';
import { OssFileRepository } from './oss-file.repository.js';
import { ossFileRoutes } from './oss-file.routes.js';
import { OssFileService } from './oss-file.service.js';

/** File storage (系统管理 → 文件管理): a company's files in the platform's BlobStore. */
export function ossFileModule({ db, clock, log }: Platform, files: FileStorage) {
  const ossFiles = new OssFileService(new OssFileRepository(db), files, clock, log);
  const module: ServerModule = {
    name: 'oss-file',
    routes: [ossFileRoutes(ossFiles)],
    menu: ossFileMenu,
    start: () => ossFiles.init(),
  };
  return { ossFiles, module };
}
