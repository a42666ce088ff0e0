import { beforeEach, describe, expect, it, vi } from 'vitest';

const HOME = '/dashboard/analysis';

// The store reads sessionStorage when it loads, so each test loads a fresh copy.
async function freshStore() {
  vi.resetModules();
  const values = new Map<string, string>();
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => values.get(k) ?? null,
    setItem: (k: string, v: string) => values.set(k, v),
    removeItem: (k: string) => values.delete(k),
  });
  return (await import('./tabs-store')).tabs;
}

describe('tabs store', () => {
  let tabs: Awaited<ReturnType<typeof freshStore>>;

  beforeEach(async () => {
    tabs = await freshStore();
  });

  it('keeps the pinned home tab first and refuses to close it', () => {
    tabs.pinHome(true);
    tabs.open('/a');
    tabs.open('/b');
    expect(tabs.paths()).toEqual([HOME, '/a', '/b']);
    expect(tabs.close(HOME)).toBe('home');
    tabs.closeOthers('/b');
    expect(tabs.paths()).toEqual([HOME, '/b']);
    expect(tabs.close('/b')).toBeNull();
    expect(tabs.close(HOME)).toBe('home');
  });

  it('closes left and right of a tab', () => {
    tabs.pinHome(true);
    ['/a', '/b', '/c'].forEach((p) => tabs.open(p));
    tabs.closeLeft('/b');
    expect(tabs.paths()).toEqual([HOME, '/b', '/c']);
    tabs.closeRight('/b');
    expect(tabs.paths()).toEqual([HOME, '/b']);
  });

  it('refuses to close the last tab when there is no home page', () => {
    tabs.pinHome(false);
    tabs.open('/a');
    expect(tabs.close('/a')).toBe('last');
    tabs.open('/b');
    expect(tabs.close('/a')).toBeNull();
    expect(tabs.paths()).toEqual(['/b']);
  });
});
