import type { Messages } from './zh-CN';

const enUS: Messages = {
  announcement: {
    readFlag: 'Read state',
    readFlags: {
      '0': 'Unread',
      '1': 'Read',
    },
    readAll: 'Mark all read',
  },
};

export default enUS;
