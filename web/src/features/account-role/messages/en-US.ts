import type { Messages } from './zh-CN';

const enUS: Messages = {
  roleAdmin: {
    add: 'New role',
    edit: 'Edit',
    delete: 'Delete',
    authorize: 'Authorize',
    search: 'Role',
    searchPlaceholder: 'Name or code',
    roleCode: 'Role code',
    roleName: 'Role name',
    roleNameEn: 'English name',
    description: 'Description',
    createTime: 'Created',
    actions: 'Actions',
    roleCodeRequired: 'Enter a role code',
    roleCodeRule: 'Starts with a letter; letters, digits and _ only',
    roleNameRequired: 'Enter a role name',
    deleteConfirm: 'Delete the role {{name}}? Its holders lose what it grants.',
    deleteConfirmHeld:
      'Delete the role {{name}}? {{count}} user(s) hold it and lose what it grants; a user with no other role can no longer use the console.',
    deleteSelected: 'Delete selected',
    deleteSelectedConfirm: 'Delete the {{count}} selected roles?',
    deleteSelectedHeld:
      'Delete the {{count}} selected roles? {{users}} user(s) hold them and lose what they grant.',
    userCount: 'Users',
    authorizeTitle: 'Authorize: {{name}}',
    checkAll: 'Check all',
    checkNone: 'Check none',
    save: 'Save',
    button: 'Button',
    dataRules: 'Data rules',
    dataRulesOf: 'Data rules: {{name}}',
    dataRulesHint:
      'Checked rules apply together (AND); with none checked the data is not restricted.',
    saveGrantFirst: 'Save the authorisation first, then choose data rules for this permission.',
  },
};

export default enUS;
