import type { SysPermissionTable } from '../../platform/db/schema.js';

export type SeedPermission = Pick<SysPermissionTable, 'name' | 'name_en' | 'menu_type'> &
  Partial<Omit<SysPermissionTable, 'id' | 'parent_id' | 'create_time'>> & {
    /** Stable key of the row; its id is derived from it. */
    key: string;
    parent?: string;
  };

/**
 * The menu of the pages the console has. Component keys are the console's page registry keys;
 * `route: 0` rows make no route of their own.
 */
export const MENU: SeedPermission[] = [
  {
    key: 'dashboard-analysis',
    name: '首页',
    name_en: 'Home',
    menu_type: 0,
    url: '/dashboard/analysis',
    component_name: 'dashboard-analysis',
    component: 'dashboard/Analysis',
    icon: 'home',
    sort_no: 0,
  },
  {
    key: 'system',
    name: '系统管理',
    name_en: 'System management',
    menu_type: 0,
    url: '/system',
    component_name: 'system',
    component: 'layouts/RouteView',
    redirect: '/system/log',
    icon: 'setting',
    sort_no: 90,
    is_leaf: 0,
  },
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

/** Menu keys the `operator` role is granted; `admin` gets every row. */
export const OPERATOR_MENU = ['dashboard-analysis', 'isps-user-announcement'];
