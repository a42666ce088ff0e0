import {
  DEVICE_LOCATION_SEPARATOR,
  locationTree,
  type TDeviceTagCount,
  type TGoods,
  type TLocationTree,
  type TLocationTreeItem,
  type TPage,
  type TVendor,
} from '@blrms/contracts';
import type { TreeOption } from './columns';

type Option = { value: string; label: string };

/** Goods as select options: the model, and its hardware revision when it has one. */
export function goodsOptions(page: TPage<TGoods> | undefined): Option[] {
  return (page?.records ?? []).map((g) => ({
    value: g.id,
    label: g.hwRevision ? `${g.model} (${g.hwRevision})` : g.model,
  }));
}

export function vendorOptions(page: TPage<TVendor> | undefined): Option[] {
  return (page?.records ?? []).map((v) => ({ value: v.id, label: v.name }));
}

/**
 * The company's locations as the nodes of a tree select: the tree shows names, the chosen value
 * its whole path (two sites may each have a 柜1).
 */
export function locationOptions(tree: TLocationTree | undefined): TreeOption[] {
  const shape =
    (above: string) =>
    (item: TLocationTreeItem<null>): TreeOption => {
      const path = above ? `${above}${DEVICE_LOCATION_SEPARATOR}${item.node.name}` : item.node.name;
      return {
        value: item.node.id,
        title: item.node.name,
        path,
        children: item.children.map(shape(path)),
      };
    };
  return locationTree(tree?.nodes ?? [], () => null).map(shape(''));
}

/** The company's tags as options, each labelled with how many devices carry it. */
export function tagOptions(
  counts: TDeviceTagCount[] | undefined,
  label: (tag: string, count: number) => string,
): Option[] {
  return (counts ?? []).map((c) => ({ value: c.tag, label: label(c.tag, c.count) }));
}

/**
 * The options, plus the current value when the options lack it (a user who cannot read base data
 * still sees the device's goods or vendor by name).
 */
export function withCurrent(options: Option[], id: string | null, label: string | null): Option[] {
  if (!id || options.some((o) => o.value === id)) return options;
  return [...options, { value: id, label: label ?? id }];
}
