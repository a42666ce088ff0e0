import { type SeedPermission } from '../../db/seed/menu.js';

const BUTTONS: [code: string, name: string, nameEn: string][] = [
  ['system:dict:add', '添加字典', 'Add dictionary'],
  ['system:dict:edit', '编辑字典', 'Edit dictionary'],
  ['system:dict:delete', '删除字典', 'Delete dictionary'],
  ['system:dict:import', '导入字典', 'Import dictionaries'],
  ['system:dict:export', '导出字典', 'Export dictionaries'],
  ['system:dict:recycle', '字典回收站', 'Dictionary recycle bin'],
];

/**
 * This module's page and buttons in the menu catalogue (seeded at start, see db/seed). Company
 * administrators get them too: a company keeps its own dictionaries, and reads the platform's.
 */
export const dictMenu: SeedPermission[] = [
  {
    key: 'system-dict',
    parent: 'system',
    name: '数据字典',
    name_en: 'Dictionaries',
    menu_type: 1,
    url: '/system/dict',
    component_name: 'system-dict',
    component: 'system/DictList',
    icon: 'profile',
    perms: 'system:dict:list',
    sort_no: 25,
    is_leaf: 0,
  },
  ...BUTTONS.map(([code, name, nameEn], index) => ({
    key: code,
    parent: 'system-dict',
    name,
    name_en: nameEn,
    menu_type: 2,
    perms: code,
    sort_no: index,
  })),
];
