import type { SeedPermission } from '../../db/seed/menu.js';

type Buttons = [code: string, name: string, nameEn: string][];

/** A page under 基础数据 (Base data) and its buttons (menu_type 2 rows keyed by their code). */
function basePage(
  entity: 'goods' | 'location' | 'vendor',
  name: string,
  nameEn: string,
  component: string,
  icon: string,
  sortNo: number,
  buttons: Buttons,
): SeedPermission[] {
  const key = `base-${entity}`;
  return [
    {
      key,
      parent: 'base',
      name,
      name_en: nameEn,
      menu_type: 1,
      url: `/base/${entity}`,
      component_name: key,
      component,
      icon,
      perms: `base:${entity}:list`,
      sort_no: sortNo,
      is_leaf: 0,
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

const buttons = (entity: string, zh: string, en: string): Buttons => [
  [`base:${entity}:add`, `添加${zh}`, `Add ${en}`],
  [`base:${entity}:edit`, `编辑${zh}`, `Edit ${en}`],
  [`base:${entity}:delete`, `删除${zh}`, `Delete ${en}`],
  [`base:${entity}:import`, `导入${zh}`, `Import ${en}`],
  [`base:${entity}:export`, `导出${zh}`, `Export ${en}`],
];

/** The three base-data pages; the sites map (sort 40) is the site-map module's. */
export const baseDataMenu: SeedPermission[] = [
  ...basePage(
    'goods',
    '物料',
    'Goods',
    'base/GoodsList',
    'shop',
    10,
    buttons('goods', '物料', 'goods'),
  ),
  ...basePage(
    'location',
    '位置',
    'Locations',
    'base/LocationList',
    'environment',
    20,
    buttons('location', '位置', 'locations'),
  ),
  ...basePage(
    'vendor',
    '供应商',
    'Vendors',
    'base/VendorList',
    'table',
    30,
    buttons('vendor', '供应商', 'vendors'),
  ),
];
