import { describe, expect, it } from 'vitest';
import { DEVICE_LOCATION_SEPARATOR, locationPath } from './index.js';

describe('locationPath', () => {
  const tree = new Map([
    ['a', { name: 'A', parentId: null }],
    ['b', { name: 'B', parentId: 'a' }],
    ['x', { name: 'X', parentId: 'y' }],
    ['y', { name: 'Y', parentId: 'x' }],
  ]);

  it('builds paths and stops at a loop', () => {
    expect(locationPath('b', tree)).toBe('A/B');
    expect(locationPath('x', tree)).toBe('Y/X');
  });

  it('joins with the separator it is given and stops where a chain breaks', () => {
    expect(locationPath('b', tree, DEVICE_LOCATION_SEPARATOR)).toBe('A / B');
    const broken = new Map([['c', { name: 'C', parentId: 'gone' }]]);
    expect(locationPath('c', broken)).toBe('C');
    expect(locationPath('missing', broken)).toBe('');
  });
});
