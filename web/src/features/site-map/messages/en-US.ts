import type { Messages } from './zh-CN';

const enUS: Messages = {
  siteMap: {
    group: 'Device group',
    allGroups: 'All groups',
    series: 'Series',
    allSeries: 'All series',
    refresh: 'Refresh',
    settings: 'Map tiles',
    summary: '{{sites}} sites · {{devices}} devices',
    unplaced: '{{count}} sites have no coordinates and are not on the map',
    truncated: 'Too many sites: the first {{max}} are shown',
    noSites: 'No sites to show: give your sites coordinates under Locations',
    legend: {
      alarm: 'Open alarm',
      offline: 'All offline',
      partial: 'Some offline',
      online: 'All online',
      empty: 'No devices',
    },
    popup: {
      total: 'Devices',
      online: 'Online',
      offline: 'Offline',
      alarms: 'Open alarms',
      devices: 'View devices',
    },
    settingsTitle: 'Map tile settings',
    tileUrl: 'Tile server URL',
    tileUrlHint:
      'E.g. https://tiles.example.com/{z}/{x}/{y}.png, with {z}, {x} and {y}; leave empty to draw the built-in world outline. Applies when the page is reloaded.',
    attribution: 'Attribution',
    attributionHint: 'The credit the tile server asks for, shown in the map corner',
  },
};

export default enUS;
