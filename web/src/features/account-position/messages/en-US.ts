import type { Messages } from './zh-CN';

const enUS: Messages = {
  position: {
    code: 'Code',
    name: 'Name',
    rank: 'Rank',
    createTime: 'Created',
    actions: 'Actions',
    add: 'Add position',
    edit: 'Edit',
    delete: 'Delete',
    deleteConfirm: 'Delete this position?',
    deleteSelected: 'Delete selected',
    deleteSelectedConfirm: 'Delete the {{count}} selected positions?',
    codeRequired: 'Please enter the code',
    codeRule: 'Letters, digits, _ and - only',
    nameRequired: 'Please enter the name',
    rankRequired: 'Please choose a rank',
  },
};

export default enUS;
