import type { Widen } from '../../../shared/i18n-catalog';

const zhCN = {
  siteMap: {
    group: '设备分组',
    allGroups: '全部分组',
    series: '设备系列',
    allSeries: '全部系列',
    refresh: '刷新',
    settings: '底图设置',
    summary: '{{sites}} 个站点 · {{devices}} 台设备',
    unplaced: '{{count}} 个站点未设置经纬度，未显示在地图上',
    truncated: '站点过多，仅显示前 {{max}} 个',
    noSites: '没有可显示的站点：请在“位置”中为站点填写经纬度',
    legend: {
      alarm: '有未清除告警',
      offline: '全部离线',
      partial: '部分离线',
      online: '全部在线',
      empty: '无设备',
    },
    popup: {
      total: '设备',
      online: '在线',
      offline: '离线',
      alarms: '未清除告警',
      devices: '查看设备',
    },
    settingsTitle: '地图底图设置',
    tileUrl: '瓦片服务地址',
    tileUrlHint:
      '如 https://tiles.example.com/{z}/{x}/{y}.png，须包含 {z}、{x}、{y}；留空则使用内置的世界地图轮廓。保存后刷新页面生效。',
    attribution: '版权说明',
    attributionHint: '瓦片服务要求显示的版权文字，显示在地图右下角',
  },
};

export type Messages = Widen<typeof zhCN>;

export default zhCN;
