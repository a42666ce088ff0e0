import type { Messages } from './zh-CN';

const enUS: Messages = {
  apiKey: {
    title: 'API keys',
    intro:
      'Scripts and integrations call the API with a key (header X-Api-Key). A key can do at most what it was given and what you can do now. It is shown once, when it is created.',
    create: 'Create API key',
    name: 'Name',
    prefix: 'Identifier',
    permissions: 'Permissions',
    permissionsHint: 'Only permissions you hold can be chosen',
    expiry: 'Expires in',
    days: '{{count}} days',
    customDate: 'A date of my own',
    expireDate: 'Expiry date',
    expireTime: 'Expires',
    status: 'Status',
    statuses: {
      active: 'Active',
      expired: 'Expired',
      revoked: 'Revoked',
    },
    reasons: {
      user: 'by you',
      admin: 'by an administrator',
      frozen: 'user frozen',
      deleted: 'user deleted',
    },
    lastUsed: 'Last used',
    neverUsed: 'Never used',
    revoke: 'Revoke',
    revokeConfirm: 'Revoke the API key "{{name}}"? Calls made with it will fail.',
    revoked: 'API key revoked',
    createdTitle: 'API key created',
    showOnce: 'Copy this key now and keep it safe: it cannot be shown again.',
    usage: 'For example:',
    done: 'I have saved it',
    mine: 'My keys',
    all: 'All keys',
    user: 'User',
  },
};

export default enUS;
