import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  testHome: {
    title: '控制台诊断',
    user: '当前用户',
    userId: '用户 ID',
    company: '当前公司',
    depart: '当前部门',
    websocket: 'WebSocket',
    socket_open: '已连接',
    socket_connecting: '连接中',
    socket_down: '未连接',
    serverVersion: '服务端版本',
    unreachable: '无法访问',
    permissions: '按钮权限（{{count}}）',
    menu: '服务端下发的菜单',
    hidden: '隐藏',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
