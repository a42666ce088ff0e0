import type { Platform, ServerModule } from '../../platform/module.js';
import './log.messages.js';
import { logMenu } from './log.menu.js';
import { LogRepository } from './log.repository.js';
import { logRoutes } from './log.routes.js';
import { LogService } from './log.service.js';
import { registerOperationLog } from './operation-log.hook.js';

export function logModule({ db, clock }: Platform) {
  const logs = new LogService(new LogRepository(db), clock);
  let flushOperationLog: () => Promise<void> = async () => {};
  const module: ServerModule = {
    name: 'log',
    routes: [logRoutes(logs)],
    menu: logMenu,
    hooks: (app) => {
      flushOperationLog = registerOperationLog(app, logs);
    },
    close: () => flushOperationLog(),
  };
  return { logs, module };
}
