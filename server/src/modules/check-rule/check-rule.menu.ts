import { type SeedPermission } from '../../db/seed/menu.js';

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const checkRuleMenu: SeedPermission[] = [
  // Check rules and the SMS provider setting (issue 6, helper A): platform administrators only.
  {
    key: 'system-check-rule',
    parent: 'system',
    name: '编码校验规则',
    name_en: 'Check rules',
    menu_type: 1,
    url: '/system/checkRule',
    component_name: 'system-check-rule',
    component: 'system/CheckRuleList',
    icon: 'safety',
    perms: 'system:checkrule:list',
    sort_no: 20,
    is_leaf: 0,
  },
  {
    key: 'system-check-rule-add',
    parent: 'system-check-rule',
    name: '添加校验规则',
    name_en: 'Add check rule',
    menu_type: 2,
    perms: 'system:checkrule:add',
    sort_no: 0,
  },
  {
    key: 'system-check-rule-edit',
    parent: 'system-check-rule',
    name: '编辑校验规则',
    name_en: 'Edit check rule',
    menu_type: 2,
    perms: 'system:checkrule:edit',
    sort_no: 1,
  },
  {
    key: 'system-check-rule-delete',
    parent: 'system-check-rule',
    name: '删除校验规则',
    name_en: 'Delete check rule',
    menu_type: 2,
    perms: 'system:checkrule:delete',
    sort_no: 2,
  },
  {
    key: 'system-check-rule-sms',
    parent: 'system-check-rule',
    name: '短信服务设置',
    name_en: 'SMS provider settings',
    menu_type: 2,
    perms: 'system:setting:sms',
    sort_no: 3,
  },
];
