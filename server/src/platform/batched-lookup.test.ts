import { describe, expect, it } from 'vitest';
import { BatchedLookup, BatchedWrites } from './batched-lookup.js';

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

describe('BatchedWrites', () => {
  it('writes the puts of a batch together, and a key put again in the next batch, in order', async () => {
    const writes: [string, number][][] = [];
    const store = new Map<string, number>();
    let running = 0;
    const batched = new BatchedWrites<string, number, number>(
      async (inputs) => {
        running += 1;
        expect(running).toBe(1);
        writes.push([...inputs]);
        await new Promise((resolve) => setTimeout(resolve, 20));
        for (const [key, value] of inputs) store.set(key, value);
        running -= 1;
        return new Map([...inputs].filter(([key]) => key !== 'gone'));
      },
      { waitMs: 5, maxKeys: 3 },
    );
    const answers = await Promise.all([
      batched.put('a', 1),
      batched.put('b', 2),
      batched.put('a', 3),
      batched.put('gone', 4),
      batched.put('c', 5),
    ]);
    expect(answers).toEqual([1, 2, 3, undefined, 5]);
    // The batch filled at three keys; the second `a` waited for the next one.
    expect(writes).toEqual([
      [
        ['a', 1],
        ['b', 2],
        ['gone', 4],
      ],
      [
        ['a', 3],
        ['c', 5],
      ],
    ]);
    expect(store.get('a')).toBe(3);
  });

  it('fails only the puts of the batch whose write failed', async () => {
    const batched = new BatchedWrites<string, string, string>(
      async (inputs) => {
        if (inputs.has('bad')) throw new Error('down');
        return new Map(inputs);
      },
      { waitMs: 5, maxKeys: 2 },
    );
    const first = [batched.put('bad', 'x'), batched.put('y', 'y')];
    const second = batched.put('z', 'z');
    await expect(first[0]).rejects.toThrow('down');
    await expect(first[1]).rejects.toThrow('down');
    expect(await second).toBe('z');
  });
});
