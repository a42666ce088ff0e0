import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  dashboard: {
    greeting: {
      earlyMorning: '早上好',
      morning: '上午好',
      noon: '中午好',
      afternoon: '下午好',
      night: '晚上好',
    },
    welcome: '{{greeting}}，{{name}}，欢迎使用 BLRMS',
    intro: '远程配置、升级和监控 R40、BL10X、S27X 系列设备',
    viewLogs: '查看后台日志',
    account: '我的账号',
    username: '账号',
    realname: '姓名',
    depart: '当前部门',
    company: '当前公司',
    departs: '所属部门',
    lastLogins: '最近登录',
    loginTime: '登录时间',
    ip: 'IP 地址',
    content: '内容',
    todayVisit: '今日访问',
    todayIp: '今日 IP',
    totalVisit: '总访问量',
    visitTrend: '最近 7 天访问',
    visits: '访问量',
    ips: 'IP 数',
    devices: {
      total: '设备总数',
      online: '在线',
      offline: '离线',
      seen24h: '24 小时内在线',
      bySeries: '各系列设备',
      byVersion: '固件版本分布',
      noVersion: '未上报',
      noDevices: '暂无设备',
      recentLogs: '最新设备日志',
      noLogs: '暂无设备日志',
      viewDevices: '查看设备',
      viewLogs: '查看全部',
    },
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
