import { type SeedPermission } from '../../db/seed/menu.js';

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const companyMenu: SeedPermission[] = [
  {
    key: 'system-company',
    parent: 'system',
    name: '客户管理',
    name_en: 'Companies',
    menu_type: 1,
    url: '/system/company',
    component_name: 'system-company',
    component: 'system/CompanyList',
    icon: 'appstore',
    perms: 'system:company:list',
    sort_no: 5,
    is_leaf: 0,
  },
  {
    key: 'system-company-add',
    parent: 'system-company',
    name: '添加客户',
    name_en: 'Add company',
    menu_type: 2,
    perms: 'system:company:add',
    sort_no: 0,
  },
  {
    key: 'system-company-edit',
    parent: 'system-company',
    name: '编辑客户',
    name_en: 'Edit company',
    menu_type: 2,
    perms: 'system:company:edit',
    sort_no: 1,
  },
  {
    key: 'system-company-freeze',
    parent: 'system-company',
    name: '冻结客户',
    name_en: 'Freeze company',
    menu_type: 2,
    perms: 'system:company:freeze',
    sort_no: 2,
  },
];
