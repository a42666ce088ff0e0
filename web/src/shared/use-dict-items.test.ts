import { describe, expect, it } from 'vitest';
import { dictOptionsOf, dictValueEnum } from './use-dict-items';

const item = (value: string, text: string) => ({ value, text, label: text, color: null });
const FALLBACK = [
  { value: 'online', label: 'Online' },
  { value: 'offline', label: 'Offline' },
];

describe('dictionary options of a select', () => {
  it('take the dictionary’s wording and order, offering only values the server accepts', () => {
    const items = [item('offline', '掉线'), item('sleeping', '休眠'), item('online', '在线')];
    expect(dictOptionsOf(items, ['online', 'offline'], FALLBACK)).toEqual([
      { value: 'offline', label: '掉线', color: null },
      { value: 'online', label: '在线', color: null },
    ]);
    expect(dictOptionsOf(items, null, []).map((o) => o.value)).toEqual([
      'offline',
      'sleeping',
      'online',
    ]);
  });

  it('fall back to the built-in options while the dictionary is missing or has none of them', () => {
    expect(dictOptionsOf(undefined, ['online', 'offline'], FALLBACK)).toEqual([
      { value: 'online', label: 'Online', color: null },
      { value: 'offline', label: 'Offline', color: null },
    ]);
    expect(dictOptionsOf([item('x', 'X')], ['online'], FALLBACK).map((o) => o.value)).toEqual([
      'online',
      'offline',
    ]);
  });

  it('keep the dictionary’s order in a table’s valueEnum, numeric-looking values included', () => {
    const options = dictOptionsOf([item('2', 'B'), item('0', 'Z'), item('1', 'A')], null, []);
    expect([...dictValueEnum(options).entries()]).toEqual([
      ['2', { text: 'B' }],
      ['0', { text: 'Z' }],
      ['1', { text: 'A' }],
    ]);
  });
});
