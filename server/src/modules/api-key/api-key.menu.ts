import { type SeedPermission } from '../../db/seed/menu.js';

/** This module's pages and buttons in the menu catalogue (seeded at start, see db/seed). */
export const apiKeyMenu: SeedPermission[] = [
  // API keys (issue 14): the user menu's page of one's own keys, a page without a menu entry.
  // Only roles granted it may hold keys; `apikey:admin` sees and revokes every key of the company
  // (of every company for platform administrators).
  {
    key: 'isps-api-key',
    name: 'API密钥',
    name_en: 'API keys',
    menu_type: 0,
    url: '/isps/apiKey',
    component_name: 'isps-api-key',
    component: 'isps/ApiKeys',
    icon: 'key',
    perms: 'apikey:own',
    hidden: 1,
    sort_no: 96,
    is_leaf: 0,
  },
  {
    key: 'isps-api-key-admin',
    parent: 'isps-api-key',
    name: '管理全部API密钥',
    name_en: 'Manage every API key',
    menu_type: 2,
    perms: 'apikey:admin',
    sort_no: 0,
  },
];
