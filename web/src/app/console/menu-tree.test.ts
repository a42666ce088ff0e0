import type { TMenuItem } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import {
  findMenuChain,
  matchesMenuPath,
  menuPages,
  menuRouteSpecs,
  visibleLeaf,
} from './menu-tree';

function item(path: string, component: string, extra: Partial<TMenuItem> = {}): TMenuItem {
  return {
    id: path,
    path,
    name: path,
    component,
    redirect: null,
    hidden: false,
    alwaysShow: false,
    route: '1',
    meta: {
      title: path,
      icon: null,
      url: null,
      keepAlive: false,
      internalOrExternal: false,
      permissionList: [],
    },
    ...extra,
  };
}

const menu: TMenuItem[] = [
  item('/dashboard', 'layouts/RouteView', {
    redirect: '/dashboard/analysis',
    children: [item('/dashboard/analysis', 'dashboard/Analysis')],
  }),
  item('/system', 'layouts/RouteView', {
    children: [
      item('/system/log', 'system/LogList'),
      item('/system/log/detail', 'system/LogDetail', { hidden: true }),
      item('/system/link', 'layouts/IframePageView', { route: '0' }),
    ],
  }),
  item('/device', 'layouts/RouteView', {
    children: [
      item('/device/list', 'device/DeviceList'),
      item('/device/detail/:id', 'device/DeviceDetail', { hidden: true }),
      item('/device/detail/all', 'device/DeviceOverview', { hidden: true }),
    ],
  }),
];

describe('menuRouteSpecs', () => {
  it('flattens the menu and redirects groups to their first page', () => {
    expect(menuRouteSpecs(menu)).toEqual([
      { path: '/dashboard', redirect: '/dashboard/analysis' },
      { path: '/dashboard/analysis', component: 'dashboard/Analysis' },
      { path: '/system', redirect: '/system/log' },
      { path: '/system/log', component: 'system/LogList' },
      { path: '/system/log/detail', component: 'system/LogDetail' },
      { path: '/device', redirect: '/device/list' },
      { path: '/device/list', component: 'device/DeviceList' },
      { path: '/device/detail/:id', component: 'device/DeviceDetail' },
      { path: '/device/detail/all', component: 'device/DeviceOverview' },
    ]);
  });
});

describe('findMenuChain', () => {
  it('returns the items from the top down', () => {
    expect(findMenuChain(menu, '/system/log').map((i) => i.path)).toEqual([
      '/system',
      '/system/log',
    ]);
    expect(findMenuChain(menu, '/nowhere')).toEqual([]);
  });

  it('highlights the nearest visible item of a hidden page', () => {
    expect(visibleLeaf(findMenuChain(menu, '/system/log/detail'))?.path).toBe('/system');
  });

  it('finds a page with parameters by the path it was opened at', () => {
    const id = '0123456789abcdef0123456789abcdef';
    expect(findMenuChain(menu, `/device/detail/${id}`).map((i) => i.path)).toEqual([
      '/device',
      '/device/detail/:id',
    ]);
    expect(visibleLeaf(findMenuChain(menu, `/device/detail/${id}`))?.path).toBe('/device');
    expect(findMenuChain(menu, '/device/detail')).toEqual([]);
    expect(findMenuChain(menu, `/device/detail/${id}/logs`)).toEqual([]);
  });

  it('prefers an item with exactly the path over one whose parameters match it', () => {
    expect(findMenuChain(menu, '/device/detail/all').at(-1)?.component).toBe(
      'device/DeviceOverview',
    );
  });
});

describe('matchesMenuPath', () => {
  it('matches parameters to one non-empty segment and everything else exactly', () => {
    expect(matchesMenuPath('/device/detail/:id', '/device/detail/abc')).toBe(true);
    expect(matchesMenuPath('/device/detail/:id', '/device/detail/')).toBe(false);
    expect(matchesMenuPath('/device/detail/:id', '/device/details/abc')).toBe(false);
    expect(matchesMenuPath('/device/:id/log/:logId', '/device/a/log/b')).toBe(true);
    expect(matchesMenuPath('/system/log', '/system/log')).toBe(true);
    expect(matchesMenuPath('/system/log', '/system/log/x')).toBe(false);
  });
});

describe('menuPages', () => {
  it('lists visible pages only', () => {
    expect(menuPages(menu).map((i) => i.path)).toEqual([
      '/dashboard/analysis',
      '/system/log',
      '/device/list',
    ]);
  });
});
