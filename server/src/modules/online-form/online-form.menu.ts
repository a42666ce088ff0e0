import { type SeedPermission } from '../../db/seed/menu.js';

const BUTTONS: [code: string, name: string, nameEn: string][] = [
  ['online:form:add', '添加表单', 'Add form'],
  ['online:form:edit', '编辑表单', 'Edit form'],
  ['online:form:delete', '删除表单', 'Delete form'],
  ['online:form:publish', '发布表单', 'Publish form'],
];

/**
 * The form definitions page and its buttons (seeded at start). Each published form adds its own
 * page to the `online` group at publish time, as a row of its company only (online-form.service).
 */
export const onlineFormMenu: SeedPermission[] = [
  {
    key: 'online-form',
    parent: 'online',
    name: '表单定义',
    name_en: 'Form definitions',
    menu_type: 1,
    url: '/online/form',
    component_name: 'online-form',
    component: 'online/FormList',
    icon: 'form',
    perms: 'online:form:list',
    sort_no: 0,
    is_leaf: 0,
  },
  ...BUTTONS.map(([code, name, nameEn], index) => ({
    key: code,
    parent: 'online-form',
    name,
    name_en: nameEn,
    menu_type: 2,
    perms: code,
    sort_no: index,
  })),
];
