import { describe, expect, it } from 'vitest';
import { BatchedLookup } from './batched-lookup.js';

describe('BatchedLookup', () => {
  it('answers the keys asked together from one fetch, a missing key with undefined', async () => {
    const fetches: string[][] = [];
    const lookup = new BatchedLookup<string, number>(
      async (keys) => {
        fetches.push(keys);
        return new Map(keys.filter((k) => k !== 'missing').map((k) => [k, k.length]));
      },
      { waitMs: 5, maxKeys: 100 },
    );
    const answers = await Promise.all(['a', 'bb', 'missing', 'a'].map((k) => lookup.get(k)));
    expect(answers).toEqual([1, 2, undefined, 1]);
    expect(fetches).toEqual([['a', 'bb', 'missing']]);
    expect(await lookup.get('ccc')).toBe(3);
    expect(fetches).toHaveLength(2);
  });

  it('fetches as soon as a batch is full, and fails every lookup of a failed fetch', async () => {
    const fetches: string[][] = [];
    const lookup = new BatchedLookup<string, string>(
      async (keys) => {
        fetches.push(keys);
        if (keys.includes('bad')) throw new Error('down');
        return new Map(keys.map((k) => [k, k]));
      },
      { waitMs: 60_000, maxKeys: 2 },
    );
    expect(await Promise.all([lookup.get('x'), lookup.get('y')])).toEqual(['x', 'y']);
    const failed = [lookup.get('bad'), lookup.get('z')];
    await expect(failed[0]).rejects.toThrow('down');
    await expect(failed[1]).rejects.toThrow('down');
    expect(fetches).toEqual([
      ['x', 'y'],
      ['bad', 'z'],
    ]);
  });
});
