import type { SysPermissionTable } from '../../platform/db/schema.js';

export type SeedPermission = Pick<SysPermissionTable, 'name' | 'name_en' | 'menu_type'> &
  Partial<Omit<SysPermissionTable, 'id' | 'parent_id' | 'create_time'>> & {
    /** Stable key of the row; its id is derived from it. */
    key: string;
    parent?: string;
  };

/** A page under 设备管理 and its buttons (menu_type 2 rows keyed by their permission code). */
function devicePage(
  key: string,
  name: string,
  nameEn: string,
  url: string,
  component: string,
  perms: string,
  sortNo: number,
  icon: string,
  buttons: [perms: string, name: string, nameEn: string][],
): SeedPermission[] {
  return [
    {
      key,
      parent: 'device',
      name,
      name_en: nameEn,
      menu_type: 1,
      url,
      component_name: key,
      component,
      icon,
      perms,
      sort_no: sortNo,
      is_leaf: buttons.length === 0 ? 1 : 0,
    },
    ...buttons.map(([code, buttonName, buttonNameEn], index) => ({
      key: code,
      parent: key,
      name: buttonName,
      name_en: buttonNameEn,
      menu_type: 2,
      perms: code,
      sort_no: index,
    })),
  ];
}

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
    key: 'device',
    name: '设备管理',
    name_en: 'Device Management',
    menu_type: 0,
    url: '/device',
    component_name: 'device',
    component: 'layouts/RouteView',
    redirect: '/device/list',
    icon: 'cluster',
    sort_no: 10,
    is_leaf: 0,
  },
  ...devicePage(
    'device-token',
    'Token密钥',
    'Token Key',
    '/device/token',
    'device/TokenList',
    'token:list',
    0,
    'key',
    [
      ['token:add', '添加', 'Add'],
      ['token:edit', '编辑', 'Edit'],
      ['token:delete', '删除', 'Delete'],
      ['token:reveal', '查看密钥', 'Reveal key'],
    ],
  ),
  ...devicePage(
    'device-group',
    '设备分组',
    'Groups',
    '/device/group',
    'device/GroupList',
    'group:list',
    1,
    'apartment',
    [
      ['group:add', '添加', 'Add'],
      ['group:edit', '编辑', 'Edit'],
      ['group:delete', '删除', 'Delete'],
    ],
  ),
  ...devicePage(
    'device-list',
    '设备列表',
    'Devices',
    '/device/list',
    'device/DeviceList',
    'device:list',
    2,
    'hdd',
    [
      ['device:add', '添加', 'Add'],
      ['device:edit', '编辑', 'Edit'],
      ['device:delete', '删除', 'Delete'],
      ['device:import', '导入', 'Import'],
      ['device:export', '导出', 'Export'],
    ],
  ),
  {
    key: 'device-detail',
    parent: 'device',
    name: '设备详情',
    name_en: 'Device detail',
    menu_type: 1,
    url: '/device/detail/:id',
    component_name: 'device-detail',
    component: 'device/DeviceDetail',
    perms: 'device:list',
    hidden: 1,
    sort_no: 3,
  },
  ...devicePage(
    'device-log',
    '设备日志',
    'Logs',
    '/device/log',
    'device/DeviceLogList',
    'devicelog:list',
    4,
    'profile',
    [],
  ),
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
