import type { Messages } from './zh-CN';

const enUS: Messages = {
  dashboard: {
    greeting: {
      earlyMorning: 'Good morning',
      morning: 'Good morning',
      noon: 'Good afternoon',
      afternoon: 'Good evening',
      night: 'Good night',
    },
    welcome: '{{greeting}}, {{name}}. Welcome to BLRMS',
    intro: 'Remotely configure, upgrade and monitor R40, BL10X and S27X series devices',
    viewLogs: 'View backend logs',
    account: 'My account',
    username: 'Username',
    realname: 'Name',
    depart: 'Current department',
    company: 'Current company',
    departs: 'My departments',
    lastLogins: 'Last logins',
    loginTime: 'Login time',
    ip: 'IP address',
    content: 'Content',
    todayVisit: "Today's visits",
    todayIp: "Today's IPs",
    totalVisit: 'Total visits',
    visitTrend: 'Visits in the last 7 days',
    visits: 'Visits',
    ips: 'IPs',
    devices: {
      total: 'Devices',
      online: 'Online',
      offline: 'Offline',
      seen24h: 'Seen in the last 24 h',
      bySeries: 'Devices by series',
      byVersion: 'Firmware versions',
      noVersion: 'Not reported',
      noDevices: 'No devices yet',
      recentLogs: 'Latest device logs',
      noLogs: 'No device logs yet',
      viewDevices: 'View devices',
      viewLogs: 'View all',
    },
  },
};

export default enUS;
