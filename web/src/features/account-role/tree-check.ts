import type { TPermissionTreeNode } from '@blrms/contracts';

/** Parent of every node, by key. */
export function parentsOf(tree: TPermissionTreeNode[]): Map<string, string | null> {
  const parents = new Map<string, string | null>();
  const walk = (nodes: TPermissionTreeNode[], parent: string | null) => {
    for (const n of nodes) {
      parents.set(n.key, parent);
      walk(n.children ?? [], n.key);
    }
  };
  walk(tree, null);
  return parents;
}

function descendants(node: TPermissionTreeNode): string[] {
  return (node.children ?? []).flatMap((c) => [c.key, ...descendants(c)]);
}

function find(tree: TPermissionTreeNode[], key: string): TPermissionTreeNode | undefined {
  for (const n of tree) {
    if (n.key === key) return n;
    const below = find(n.children ?? [], key);
    if (below) return below;
  }
  return undefined;
}

/**
 * Checking a node checks the menus above it (a page is only reachable through its menu) and
 * everything below it (a group grants its pages, a page its buttons, as antd's and JeecgBoot's
 * trees do); unchecking it unchecks everything below. Siblings keep their state, and a button
 * can be unchecked afterwards, so a role can hold a page with only some of its buttons.
 */
export function toggle(
  tree: TPermissionTreeNode[],
  checked: ReadonlySet<string>,
  key: string,
  on: boolean,
): Set<string> {
  const next = new Set(checked);
  if (on) {
    const parents = parentsOf(tree);
    for (let at: string | null | undefined = key; at; at = parents.get(at)) next.add(at);
    const node = find(tree, key);
    if (node) for (const d of descendants(node)) next.add(d);
  } else {
    next.delete(key);
    const node = find(tree, key);
    if (node) for (const d of descendants(node)) next.delete(d);
  }
  return next;
}
