import type { Messages } from './zh-CN';

const enUS: Messages = {
  testHome: {
    title: 'Console diagnostics',
    user: 'Current user',
    userId: 'User ID',
    company: 'Current company',
    depart: 'Current department',
    websocket: 'WebSocket',
    socket_open: 'Connected',
    socket_connecting: 'Connecting',
    socket_down: 'Not connected',
    serverVersion: 'Server version',
    unreachable: 'Unreachable',
    permissions: 'Button permissions ({{count}})',
    menu: 'Menu sent by the server',
    hidden: 'hidden',
  },
};

export default enUS;
