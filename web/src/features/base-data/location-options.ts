import {
  LOCATION_PARENT_KINDS,
  locationTree,
  type TLocationKind,
  type TLocationNode,
} from '@blrms/contracts';

export type LocationOption = {
  value: string;
  title: string;
  disabled?: boolean;
  children: LocationOption[];
};

/**
 * The tree-select options of the company's locations; with `forKind`, only the kinds a location
 * of that kind may sit under are choosable, and with `exclude` a location and its subtree are left
 * out (a location cannot move under itself).
 */
export function locationOptions(
  nodes: readonly TLocationNode[],
  kindLabel: (kind: TLocationKind) => string,
  restrict: { forKind?: TLocationKind; exclude?: string } = {},
): LocationOption[] {
  const allowed = restrict.forKind ? LOCATION_PARENT_KINDS[restrict.forKind] : null;
  const shape = (items: ReturnType<typeof locationTree<LocationOption>>): LocationOption[] =>
    items
      .filter((item) => item.node.id !== restrict.exclude)
      .map((item) => ({
        ...item.value,
        children: shape(item.children),
      }));
  return shape(
    locationTree(nodes, (node) => ({
      value: node.id,
      title: `${node.name} · ${kindLabel(node.kind)}`,
      disabled: allowed ? !allowed.includes(node.kind) : false,
      children: [],
    })),
  );
}
