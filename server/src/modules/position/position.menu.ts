import { type SeedPermission } from '../../db/seed/menu.js';

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const positionMenu: SeedPermission[] = [
  {
    key: 'account-position',
    parent: 'account',
    name: '职务维护',
    name_en: 'Position maintenance',
    menu_type: 1,
    url: '/account/position',
    component_name: 'account-position',
    component: 'account/PositionList',
    icon: 'safety',
    perms: 'account:position:list',
    sort_no: 40,
    is_leaf: 0,
  },
  {
    key: 'account-position-add',
    parent: 'account-position',
    name: '添加职务',
    name_en: 'Add position',
    menu_type: 2,
    perms: 'account:position:add',
    sort_no: 0,
  },
  {
    key: 'account-position-edit',
    parent: 'account-position',
    name: '编辑职务',
    name_en: 'Edit position',
    menu_type: 2,
    perms: 'account:position:edit',
    sort_no: 1,
  },
  {
    key: 'account-position-delete',
    parent: 'account-position',
    name: '删除职务',
    name_en: 'Delete position',
    menu_type: 2,
    perms: 'account:position:delete',
    sort_no: 2,
  },
];
