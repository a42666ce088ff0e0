import type { TMenuItem } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import { findMenuChain, menuPages, menuRouteSpecs, visibleLeaf } from './menu-tree';

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
];

describe('menuRouteSpecs', () => {
  it('flattens the menu and redirects groups to their first page', () => {
    expect(menuRouteSpecs(menu)).toEqual([
      { path: '/dashboard', redirect: '/dashboard/analysis' },
      { path: '/dashboard/analysis', component: 'dashboard/Analysis' },
      { path: '/system', redirect: '/system/log' },
      { path: '/system/log', component: 'system/LogList' },
      { path: '/system/log/detail', component: 'system/LogDetail' },
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
});

describe('menuPages', () => {
  it('lists visible pages only', () => {
    expect(menuPages(menu).map((i) => i.path)).toEqual(['/dashboard/analysis', '/system/log']);
  });
});
