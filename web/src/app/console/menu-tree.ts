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

/**
 * Whether a menu path matches a location path. A menu path may name parameters the way the
 * router does (`/device/detail/:id`): each matches one non-empty segment.
 */
export function matchesMenuPath(menuPath: string, pathname: string): boolean {
  if (!menuPath.includes('/:')) return menuPath === pathname;
  const pattern = menuPath.split('/');
  const actual = pathname.split('/');
  return (
    pattern.length === actual.length &&
    pattern.every((part, i) => {
      const segment = actual[i] ?? '';
      return part.startsWith(':') ? segment !== '' : part === segment;
    })
  );
}

function chainWhere(
  menu: readonly TMenuItem[],
  matches: (item: TMenuItem) => boolean,
): TMenuItem[] {
  for (const item of menu) {
    if (matches(item)) return [item];
    const below = chainWhere(item.children ?? [], matches);
    if (below.length > 0) return [item, ...below];
  }
  return [];
}

/**
 * The items from the top of the menu down to the one at `pathname`; empty when none matches.
 * An item with exactly that path wins over one whose parameters match it, as in the router.
 */
export function findMenuChain(menu: readonly TMenuItem[], pathname: string): TMenuItem[] {
  const exact = chainWhere(menu, (item) => item.path === pathname);
  return exact.length > 0
    ? exact
    : chainWhere(menu, (item) => matchesMenuPath(item.path, pathname));
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
