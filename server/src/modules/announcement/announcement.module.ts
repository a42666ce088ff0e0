import type { Platform, ServerModule } from '../../platform/module.js';
import './announcement.messages.js';
import { announcementMenu } from './announcement.menu.js';
import { AnnouncementRepository } from './announcement.repository.js';
import { announcementRoutes } from './announcement.routes.js';
import { AnnouncementService } from './announcement.service.js';

export function announcementModule({ db, dialect, bus, clock }: Platform) {
  const announcements = new AnnouncementService(
    new AnnouncementRepository(db, dialect),
    bus,
    clock,
  );
  const module: ServerModule = {
    name: 'announcement',
    routes: [announcementRoutes(announcements)],
    menu: announcementMenu,
  };
  return { announcements, module };
}
