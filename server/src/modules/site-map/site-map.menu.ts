import type { SeedPermission } from '../../db/seed/menu.js';

/**
 * The map page under 基础数据 (Base data). Its one button, the tile-server setting, acts on every
 * company's map, so it is platform-only (`PLATFORM_ONLY_PERMS`).
 */
export const siteMapMenu: SeedPermission[] = [
  {
    key: 'base-sites',
    parent: 'base',
    name: '站点地图',
    name_en: 'Sites map',
    menu_type: 1,
    url: '/base/sites',
    component_name: 'base-sites',
    component: 'base/SiteMap',
    icon: 'environment',
    perms: 'base:sites:view',
    sort_no: 40,
    is_leaf: 0,
  },
  {
    key: 'base:sites:settings',
    parent: 'base-sites',
    name: '地图底图设置',
    name_en: 'Map tile settings',
    menu_type: 2,
    perms: 'base:sites:settings',
    sort_no: 0,
  },
];
