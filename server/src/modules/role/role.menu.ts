import { type SeedPermission } from '../../db/seed/menu.js';

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const roleMenu: SeedPermission[] = [
  // Login accounts, roles and menu permissions (issue 6, helper B).
  {
    key: 'account-role',
    parent: 'account',
    name: '角色管理',
    name_en: 'Role management',
    menu_type: 1,
    url: '/account/role',
    component_name: 'account-role',
    component: 'account/RoleList',
    icon: 'safety',
    perms: 'account:role:list',
    sort_no: 20,
    is_leaf: 0,
  },
  {
    key: 'account-role-add',
    parent: 'account-role',
    name: '添加角色',
    name_en: 'Add role',
    menu_type: 2,
    perms: 'account:role:add',
    sort_no: 0,
  },
  {
    key: 'account-role-edit',
    parent: 'account-role',
    name: '编辑角色',
    name_en: 'Edit role',
    menu_type: 2,
    perms: 'account:role:edit',
    sort_no: 1,
  },
  {
    key: 'account-role-delete',
    parent: 'account-role',
    name: '删除角色',
    name_en: 'Delete role',
    menu_type: 2,
    perms: 'account:role:delete',
    sort_no: 2,
  },
  {
    key: 'account-role-authorize',
    parent: 'account-role',
    name: '角色授权',
    name_en: 'Authorize role',
    menu_type: 2,
    perms: 'account:role:authorize',
    sort_no: 3,
  },
];
