import { devicePage, type SeedPermission } from '../../db/seed/menu.js';

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const campaignMenu: SeedPermission[] = [
  ...devicePage(
    'device-campaign',
    '升级任务',
    'Campaigns',
    '/device/campaign',
    'device/CampaignList',
    'campaign:list',
    6,
    'deployment',
    [
      ['campaign:add', '新建', 'Create'],
      ['campaign:control', '暂停/继续/取消/重试', 'Pause, resume, cancel, retry'],
    ],
  ),
  {
    key: 'device-campaign-detail',
    parent: 'device',
    name: '升级任务详情',
    name_en: 'Campaign detail',
    menu_type: 1,
    url: '/device/campaign/:id',
    component_name: 'device-campaign-detail',
    component: 'device/CampaignDetail',
    perms: 'campaign:list',
    hidden: 1,
    sort_no: 7,
  },
];
