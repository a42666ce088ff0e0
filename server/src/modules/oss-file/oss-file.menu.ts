import { type SeedPermission } from '../../db/seed/menu.js';

/** This module's page and buttons in the menu catalogue (seeded at start, see db/seed). */
export const ossFileMenu: SeedPermission[] = [
  {
    key: 'system-oss-file',
    parent: 'system',
    name: '文件管理',
    name_en: 'File storage',
    menu_type: 1,
    url: '/system/oss-file',
    component_name: 'system-oss-file',
    component: 'system/OssFileList',
    icon: 'hdd',
    perms: 'system:oss:file:list',
    sort_no: 35,
  },
  ...(
    [
      ['upload', '上传文件', 'Upload file'],
      ['download', '下载与预览', 'Download and preview'],
      ['delete', '删除文件', 'Delete file'],
    ] as const
  ).map(([action, name, nameEn], index): SeedPermission => ({
    key: `system-oss-file-${action}`,
    parent: 'system-oss-file',
    name,
    name_en: nameEn,
    menu_type: 2,
    perms: `system:oss:file:${action}`,
    sort_no: index,
  })),
];
