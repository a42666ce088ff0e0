import type { Platform, ServerModule } from '../../platform/module.js';
import { onlineFormMenu } from './online-form.menu.js';
import './online-form.messages.js';
import { OnlineFormRepository } from './online-form.repository.js';
import { onlineFormRoutes, onlineRecordRoutes } from './online-form.routes.js';
import { OnlineFormService, type OnlineFormDeps } from './online-form.service.js';

/** Online forms (在线表单): definitions, their menu pages, and their records. */
export function onlineFormModule({ db, permissions, bus, clock }: Platform, deps: OnlineFormDeps) {
  const forms = new OnlineFormService(new OnlineFormRepository(db), permissions, deps, bus, clock);
  const module: ServerModule = {
    name: 'online-form',
    routes: [onlineFormRoutes(forms), onlineRecordRoutes(forms)],
    menu: onlineFormMenu,
  };
  return { forms, module };
}
