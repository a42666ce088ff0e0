import type { Messages } from './zh-CN';

const enUS: Messages = {
  log: {
    loginTab: 'Login log',
    operationTab: 'Operation log',
    keyWord: 'Keyword',
    keyWordPlaceholder: 'Log content, user or request URL',
    time: 'Time',
    username: 'User',
    ip: 'IP address',
    content: 'Content',
    method: 'Method',
    url: 'Request URL',
    operateType: 'Operation type',
    status: 'Status',
    costTime: 'Duration (ms)',
    actions: 'Actions',
    details: 'Details',
    params: 'Parameters',
    types: {
      query: 'Query',
      add: 'Add',
      edit: 'Edit',
      delete: 'Delete',
      import: 'Import',
      export: 'Export',
      login: 'Login',
    },
  },
};

export default enUS;
