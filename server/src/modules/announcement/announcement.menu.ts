import { type SeedPermission } from '../../db/seed/menu.js';

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const announcementMenu: SeedPermission[] = [
  {
    key: 'system-announcement',
    parent: 'system',
    name: '通告管理',
    name_en: 'Announcements',
    menu_type: 1,
    url: '/system/announcement',
    component_name: 'system-announcement',
    component: 'system/AnnouncementList',
    icon: 'notification',
    perms: 'system:announcement:list',
    sort_no: 10,
  },
  ...(
    [
      ['add', '新增', 'Add'],
      ['edit', '编辑', 'Edit'],
      ['delete', '删除', 'Delete'],
      ['release', '发布', 'Publish'],
      ['revoke', '撤销', 'Revoke'],
    ] as const
  ).map(([action, name, nameEn], index): SeedPermission => ({
    key: `system-announcement-${action}`,
    parent: 'system-announcement',
    name: `通告${name}`,
    name_en: `${nameEn} announcement`,
    menu_type: 2,
    perms: `system:announcement:${action}`,
    sort_no: index,
  })),
  {
    // The bell's "view more": every user's own announcements, a page without a menu entry.
    key: 'isps-user-announcement',
    name: '我的通告',
    name_en: 'My announcements',
    menu_type: 0,
    url: '/isps/userAnnouncement',
    component_name: 'isps-user-announcement',
    component: 'isps/UserAnnouncement',
    icon: 'notification',
    hidden: 1,
    sort_no: 95,
  },
];
