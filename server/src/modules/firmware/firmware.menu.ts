import { devicePage, type SeedPermission } from '../../db/seed/menu.js';

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const firmwareMenu: SeedPermission[] = [
  // Remote operations (issue 5): the firmware library and upgrade/configuration campaigns.
  ...devicePage(
    'device-firmware',
    '固件库',
    'Firmware',
    '/device/firmware',
    'device/FirmwareList',
    'firmware:list',
    5,
    'database',
    [
      ['firmware:upload', '上传', 'Upload'],
      ['firmware:edit', '编辑', 'Edit'],
      ['firmware:delete', '删除', 'Delete'],
      ['firmware:settings', '上传限制', 'Upload limit'],
    ],
  ),
];
