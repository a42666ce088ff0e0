import type { Messages } from './zh-CN';

const enUS: Messages = {
  deviceGroup: {
    title: 'Device groups',
    name: 'Group name',
    namePlaceholder: 'e.g. East region',
    online: 'Online',
    offline: 'Offline',
    total: 'Total',
    addTitle: 'Add group',
    editTitle: 'Edit group',
    deleteTitle: 'Delete group "{{name}}"?',
    deleteBatchTitle: 'Delete the {{count}} selected groups?',
    deleteContent: 'The devices in the group are kept and left without a group.',
  },
};

export default enUS;
