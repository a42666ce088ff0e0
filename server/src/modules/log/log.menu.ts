import { type SeedPermission } from '../../db/seed/menu.js';

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const logMenu: SeedPermission[] = [
  {
    key: 'system-log',
    parent: 'system',
    name: '后台日志',
    name_en: 'Backend logs',
    menu_type: 1,
    url: '/system/log',
    component_name: 'system-log',
    component: 'system/LogList',
    icon: 'file-search',
    perms: 'system:log:list',
    sort_no: 0,
  },
];
