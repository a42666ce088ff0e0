import type { Messages } from './zh-CN';

const enUS: Messages = {
  checkRule: {
    ruleCode: 'Rule code',
    ruleCodeRule: 'Letters, digits, _ or - only',
    ruleName: 'Rule name',
    description: 'Description',
    rules: 'Rules',
    pattern: 'Pattern',
    patternHelp:
      'RE2 syntax: no backreferences or lookaround; matching time grows linearly with the input',
    messageZh: 'Message (Chinese)',
    messageEn: 'Message (English)',
    addItem: 'Add a rule',
    removeItem: 'Remove this rule',
    createTime: 'Created',
    actions: 'Actions',
    add: 'Add check rule',
    edit: 'Edit check rule',
    editShort: 'Edit',
    delete: 'Delete',
    deleteConfirm: 'Delete rule {{code}}?',
    test: 'Test',
    testTitle: 'Test rule {{code}}',
    testValue: 'Value to check',
    smsTitle: 'SMS provider',
    smsHelp: 'Phone-login and password-reset codes are sent by the provider chosen here.',
    smsProvider: 'Provider',
    smsLog: 'Server log and outbox folder (nothing is sent)',
    smsHttp: 'HTTP SMS gateway',
    smsUrl: 'Gateway URL',
    smsUrlRule: 'Please enter an http(s):// URL',
    smsAuthorization: 'Authorization header',
    smsAuthorizationKept: 'Set; leave empty to keep it',
  },
};

export default enUS;
