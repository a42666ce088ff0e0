import {
  LOCATION_DEPTH_MAX,
  LOCATION_PARENT_KINDS,
  LOCATION_PATH_SEPARATOR,
  locationPath,
  type TLocationKind,
} from '@blrms/contracts';

/**
 * The rules of the location tree, on the company's nodes held in memory (at most
 * `LOCATIONS_MAX`): paths, the order parents-first, and where a location may be put.
 */

export interface TreeNode {
  id: string;
  parentId: string | null;
  kind: TLocationKind;
  name: string;
}

export type Placement =
  | { ok: true }
  | { ok: false; problem: 'parentKind'; allowed: readonly (TLocationKind | null)[] }
  | { ok: false; problem: 'cycle' }
  | { ok: false; problem: 'tooDeep' }
  | { ok: false; problem: 'kindChildren'; child: TLocationKind }
  | { ok: false; problem: 'nameTaken' };

export class LocationTree<N extends TreeNode = TreeNode> {
  readonly byId = new Map<string, N>();
  private readonly children = new Map<string | null, N[]>();

  constructor(nodes: readonly N[]) {
    for (const node of nodes) this.add(node);
  }

  add(node: N): void {
    this.byId.set(node.id, node);
    const siblings = this.children.get(node.parentId) ?? [];
    siblings.push(node);
    this.children.set(node.parentId, siblings);
  }

  childrenOf(id: string | null): N[] {
    return this.children.get(id) ?? [];
  }

  /** Names from the root down to the node, joined by "/"; a broken chain stops where it breaks. */
  path(id: string): string {
    return locationPath(id, this.byId);
  }

  private parentOf(node: N): N | undefined {
    return node.parentId === null ? undefined : this.byId.get(node.parentId);
  }

  /** Levels from the root to the node (a root is 1). */
  depth(id: string | null): number {
    let depth = 0;
    const seen = new Set<string>();
    for (let at = id === null ? undefined : this.byId.get(id); at && !seen.has(at.id);) {
      seen.add(at.id);
      depth += 1;
      at = this.parentOf(at);
    }
    return depth;
  }

  /** Levels below the node (a leaf has 0). */
  private height(id: string): number {
    let height = 0;
    let level = this.childrenOf(id);
    const seen = new Set<string>([id]);
    while (level.length > 0) {
      height += 1;
      level = level.flatMap((n) => (seen.has(n.id) ? [] : (seen.add(n.id), this.childrenOf(n.id))));
    }
    return height;
  }

  /** Every node, each after its parent, siblings in the order they were given. */
  ordered(): N[] {
    const out: N[] = [];
    const visit = (parentId: string | null) => {
      for (const node of this.childrenOf(parentId)) {
        out.push(node);
        visit(node.id);
      }
    };
    visit(null);
    return out;
  }

  /**
   * Whether a location (`id`, absent for a new one) of `kind` named `name` may sit under
   * `parentId` (already known to be in the tree, or null).
   */
  placement(
    location: { id?: string; kind: TLocationKind; name: string },
    parentId: string | null,
  ): Placement {
    const parent = parentId === null ? null : (this.byId.get(parentId) ?? null);
    const allowed = LOCATION_PARENT_KINDS[location.kind];
    if (!allowed.includes(parent ? parent.kind : null)) {
      return { ok: false, problem: 'parentKind', allowed };
    }
    const id = location.id;
    if (id !== undefined) {
      const seen = new Set<string>();
      for (let at = parent; at && !seen.has(at.id); at = this.parentOf(at) ?? null) {
        if (at.id === id) return { ok: false, problem: 'cycle' };
        seen.add(at.id);
      }
      const child = this.childrenOf(id).find(
        (c) => !LOCATION_PARENT_KINDS[c.kind].includes(location.kind),
      );
      if (child) return { ok: false, problem: 'kindChildren', child: child.kind };
    }
    const below = id === undefined ? 0 : this.height(id);
    if (this.depth(parentId) + 1 + below > LOCATION_DEPTH_MAX) {
      return { ok: false, problem: 'tooDeep' };
    }
    const taken = this.childrenOf(parentId).some((s) => s.name === location.name && s.id !== id);
    if (taken) return { ok: false, problem: 'nameTaken' };
    return { ok: true };
  }
}

/** A path as people write it ("华东 / 上海站"), with the separator's spacing made canonical. */
export function canonicalPath(text: string): string {
  return text
    .split(LOCATION_PATH_SEPARATOR)
    .map((part) => part.trim())
    .filter(Boolean)
    .join(LOCATION_PATH_SEPARATOR);
}
