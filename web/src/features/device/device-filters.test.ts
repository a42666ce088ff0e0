import { describe, expect, it } from 'vitest';
import { filterOf, searchFromUrl } from './device-filters';

const GROUP = '0123456789abcdef0123456789abcdef';

describe('searchFromUrl', () => {
  it('opens the list filtered by group, status and series from a link', () => {
    expect(searchFromUrl(new URLSearchParams(`groupId=${GROUP}&status=online&series=R40`))).toEqual(
      { groupId: GROUP, status: 'online', series: 'R40' },
    );
    expect(searchFromUrl(new URLSearchParams('groupId=none'))).toEqual({ groupId: 'none' });
  });

  it('opens the list at a location or with tags from a link', () => {
    expect(searchFromUrl(new URLSearchParams(`locationId=${GROUP}&tags=北区,pilot`))).toEqual({
      locationId: GROUP,
      tags: ['北区', 'pilot'],
    });
    expect(searchFromUrl(new URLSearchParams(`tags=${'x'.repeat(33)}`))).toEqual({});
  });

  it('drops values the server would refuse and parameters it does not know', () => {
    expect(
      searchFromUrl(new URLSearchParams("groupId=x' or 1=1&status=sleeping&series=R41&sn=a")),
    ).toEqual({});
  });
});

describe('filterOf', () => {
  it('trims texts, drops blank ones and splits the creation range', () => {
    expect(
      filterOf({
        sn: '  SN-1 ',
        name: '   ',
        status: 'offline',
        createTime: ['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z'],
      }),
    ).toEqual({
      sn: 'SN-1',
      name: undefined,
      series: undefined,
      version: undefined,
      groupId: undefined,
      status: 'offline',
      ownerId: undefined,
      tokenId: undefined,
      createTime_begin: '2026-01-01T00:00:00.000Z',
      createTime_end: '2026-02-01T00:00:00.000Z',
    });
  });

  it('sends the chosen tags comma-separated and no tags as no filter', () => {
    expect(filterOf({ tags: ['北区', 'pilot'], locationId: GROUP }).tags).toBe('北区,pilot');
    expect(filterOf({ tags: [] }).tags).toBeUndefined();
  });
});
