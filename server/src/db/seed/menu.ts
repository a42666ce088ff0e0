import type { SysPermissionTable } from '../../platform/db/schema.js';

export type SeedPermission = Pick<SysPermissionTable, 'name' | 'name_en' | 'menu_type'> &
  Partial<Omit<SysPermissionTable, 'id' | 'parent_id' | 'create_time'>> & {
    /** Stable key of the row; its id is derived from it. */
    key: string;
    parent?: string;
  };

/** A page under 设备管理 and its buttons (menu_type 2 rows keyed by their permission code). */
export function devicePage(
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
 * The menu's groups (the side menu's folders and the home and test pages of the shell). Each
 * module declares its own pages and buttons (`<module>.menu.ts`); the seed writes the groups, then
 * the modules' rows. Component keys are the console's page registry keys; `route: 0` rows make no
 * route of their own.
 */
export const MENU_GROUPS: SeedPermission[] = [
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
  {
    key: 'alarm',
    name: '警告管理',
    name_en: 'Alarms',
    menu_type: 0,
    url: '/alarm',
    component_name: 'alarm',
    component: 'layouts/RouteView',
    redirect: '/alarm/list',
    icon: 'alert',
    sort_no: 20,
    is_leaf: 0,
  },
  {
    key: 'base',
    name: '基础数据',
    name_en: 'Base data',
    menu_type: 0,
    url: '/base',
    component_name: 'base',
    component: 'layouts/RouteView',
    redirect: '/base/goods',
    icon: 'database',
    sort_no: 30,
    is_leaf: 0,
  },
  {
    key: 'online',
    name: '在线表单',
    name_en: 'Online forms',
    menu_type: 0,
    url: '/online',
    component_name: 'online',
    component: 'layouts/RouteView',
    redirect: '/online/form',
    icon: 'form',
    sort_no: 40,
    is_leaf: 0,
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
    // The spec's /test route: a diagnostics page administrators use to check the console. The
    // group is hidden, which hides its page from the side menu and the menu search too; the page
    // itself stays visible, as the server leaves out a group with no visible page.
    key: 'test',
    name: '测试',
    name_en: 'Test',
    menu_type: 0,
    url: '/test',
    component_name: 'test',
    component: 'layouts/RouteView',
    redirect: '/test/home',
    icon: 'setting',
    hidden: 1,
    sort_no: 99,
    is_leaf: 0,
  },
  {
    key: 'test-home',
    parent: 'test',
    name: '控制台诊断',
    name_en: 'Console diagnostics',
    menu_type: 1,
    url: '/test/home',
    component_name: 'TestHome',
    component: 'test/TestHome',
    icon: 'setting',
    sort_no: 0,
  },
  {
    key: 'account',
    name: '账户权限',
    name_en: 'Account permissions',
    menu_type: 0,
    url: '/account',
    component_name: 'account',
    component: 'layouts/RouteView',
    icon: 'team',
    sort_no: 80,
    is_leaf: 0,
  },
];

/**
 * Menu/button rows (by perms prefix) a company administrator does not get: they act on the whole
 * platform (companies, check rules, platform settings, how long device data is kept, the firmware
 * upload limit, the system monitor and online users), which only platform administrators manage.
 */
export const PLATFORM_ONLY_PERMS = [
  'system:company',
  'system:checkrule',
  'system:setting',
  'device:retention',
  'firmware:settings',
  'system:monitor',
  'system:online',
  'base:sites:settings',
];

export function isPlatformOnly(perms: string | null | undefined): boolean {
  return PLATFORM_ONLY_PERMS.some((prefix) => perms?.startsWith(prefix));
}

/**
 * Menu keys the `operator` role (运维人员) is granted when it is created; `admin` gets every row.
 * An operator looks after the fleet: devices, their groups, logs, firmware and campaigns, and may
 * configure devices and send them the predefined commands, answers alarms (acknowledge, clear,
 * export) and sees the sites map; token keys, deleting devices, free-form commands, starting
 * campaigns and alarm rules stay with administrators.
 */
export const OPERATOR_MENU = [
  'dashboard-analysis',
  'isps-user-announcement',
  'device',
  'device-group',
  'device-list',
  'device:export',
  'device:config',
  'device:command',
  'device-detail',
  'device-log',
  'device-firmware',
  'device-campaign',
  'device-campaign-detail',
  'alarm',
  'alarm-list',
  'alarm-list-ack',
  'alarm-list-clear',
  'alarm-list-export',
  'base',
  'base-sites',
];
