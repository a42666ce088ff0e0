import type { TLocationNode } from '@blrms/contracts';
import { describe, expect, it } from 'vitest';
import { locationOptions, withCurrent } from './base-options';

const node = (id: string, name: string, parentId: string | null): TLocationNode => ({
  id: id.padEnd(32, '0'),
  parentId: parentId?.padEnd(32, '0') ?? null,
  kind: 'site',
  name,
  path: name,
  latitude: null,
  longitude: null,
  sortNo: 0,
});

describe('location options', () => {
  it('nests the locations and labels each with its whole path', () => {
    const tree = locationOptions({
      nodes: [node('a', '华东', null), node('b', '上海站', 'a'), node('c', '柜1', 'b')],
      truncated: false,
    });
    expect(tree).toHaveLength(1);
    const cabinet = tree[0]!.children[0]!.children[0]!;
    expect(cabinet).toMatchObject({ title: '柜1', path: '华东 / 上海站 / 柜1', children: [] });
  });

  it('keeps the current value selectable when the options lack it', () => {
    const id = 'f'.repeat(32);
    expect(withCurrent([], id, 'R40-4G')).toEqual([{ value: id, label: 'R40-4G' }]);
    expect(withCurrent([{ value: id, label: 'x' }], id, 'R40-4G')).toHaveLength(1);
  });
});
