import { type SeedPermission } from '../../db/seed/menu.js';

/**
 * The system monitor and online users: platform-wide, so platform administrators only
 * (`system:monitor` and `system:online` are in PLATFORM_ONLY_PERMS, and the services check again).
 */
export const monitorMenu: SeedPermission[] = [
  {
    key: 'system-monitor',
    parent: 'system',
    name: '系统监控',
    name_en: 'System monitor',
    menu_type: 1,
    url: '/system/monitor',
    component_name: 'system-monitor',
    component: 'system/Monitor',
    icon: 'dashboard',
    perms: 'system:monitor:view',
    sort_no: 40,
  },
  {
    key: 'system-online-user',
    parent: 'system',
    name: '在线用户',
    name_en: 'Online users',
    menu_type: 1,
    url: '/system/online-user',
    component_name: 'system-online-user',
    component: 'system/OnlineUserList',
    icon: 'team',
    perms: 'system:online:list',
    sort_no: 41,
    is_leaf: 0,
  },
  {
    key: 'system:online:forceLogout',
    parent: 'system-online-user',
    name: '强制退出',
    name_en: 'Force logout',
    menu_type: 2,
    perms: 'system:online:forceLogout',
    sort_no: 0,
  },
];
