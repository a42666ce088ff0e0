import type { TMenuItem } from '@blrms/contracts';

/** The component key of a menu item that only groups its children (spec: RouteView). */
export const OUTLET_COMPONENT = 'layouts/RouteView';

export type RouteSpec = { path: string; component: string } | { path: string; redirect: string };

/**
 * The console's routes from the server menu. A RouteView only passes its children through and
 * the console layout is the one outlet, so children become flat routes with their absolute paths
 * and the RouteView's own path redirects to its `redirect` or first child. Items with route '0'
 * make no route (nor do their children).
 */
export function menuRouteSpecs(menu: readonly TMenuItem[]): RouteSpec[] {
  const seen = new Set<string>();
  const walk = (items: readonly TMenuItem[]): RouteSpec[] =>
    items.flatMap((item): RouteSpec[] => {
      if (item.route === '0' || seen.has(item.path)) return [];
      seen.add(item.path);
      const children = walk(item.children ?? []);
      if (item.component !== OUTLET_COMPONENT) {
        return [{ path: item.path, component: item.component }, ...children];
      }
      const target = item.redirect ?? children[0]?.path;
      return target && target !== item.path
        ? [{ path: item.path, redirect: target }, ...children]
        : children;
    });
  return walk(menu);
}

/** The items from the top of the menu down to the one at `pathname`; empty when none matches. */
export function findMenuChain(menu: readonly TMenuItem[], pathname: string): TMenuItem[] {
  for (const item of menu) {
    if (item.path === pathname) return [item];
    const below = findMenuChain(item.children ?? [], pathname);
    if (below.length > 0) return [item, ...below];
  }
  return [];
}

/** Menu entries that open a page, in menu order: what the menu search offers. */
export function menuPages(menu: readonly TMenuItem[]): TMenuItem[] {
  return menu.flatMap((item) => {
    if (item.hidden) return [];
    const below = menuPages(item.children ?? []);
    const isPage = item.route !== '0' && item.component !== OUTLET_COMPONENT;
    return isPage ? [item, ...below] : below;
  });
}

/** The deepest visible item of a chain: the one the side menu highlights for a hidden page. */
export function visibleLeaf(chain: readonly TMenuItem[]): TMenuItem | undefined {
  return [...chain].reverse().find((item) => !item.hidden);
}
