import { beforeEach, describe, expect, it, vi } from 'vitest';

// The store reads sessionStorage when it loads, so each test loads a fresh copy.
async function freshStore(saved: Record<string, string> = {}) {
  vi.resetModules();
  const values = new Map(Object.entries(saved));
  vi.stubGlobal('sessionStorage', {
    getItem: (k: string) => values.get(k) ?? null,
    setItem: (k: string, v: string) => values.set(k, v),
    removeItem: (k: string) => values.delete(k),
  });
  return { store: await import('./page-title'), values };
}

describe('page titles', () => {
  beforeEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps the titles pages give themselves across a reload', async () => {
    const { store, values } = await freshStore();
    store.setPageTitle('/device/detail/a', 'Router 1');
    store.setPageTitle('/device/detail/b', 'Gateway 2');
    const reloaded = await freshStore(Object.fromEntries(values));
    // Pruning works on what the reloaded store read back.
    reloaded.store.retainPageTitles(['/device/detail/a']);
    expect(JSON.parse(reloaded.values.get('blrms.pageTitles') ?? '{}')).toEqual({
      '/device/detail/a': 'Router 1',
    });
  });

  it('forgets the titles of closed pages', async () => {
    const { store, values } = await freshStore();
    store.setPageTitle('/device/detail/a', 'Router 1');
    store.setPageTitle('/device/detail/b', 'Gateway 2');
    store.retainPageTitles(['/dashboard/analysis', '/device/detail/b']);
    expect(JSON.parse(values.get('blrms.pageTitles') ?? '{}')).toEqual({
      '/device/detail/b': 'Gateway 2',
    });
  });

  it('ignores a malformed saved value', async () => {
    const { store, values } = await freshStore({ 'blrms.pageTitles': '{"a": 1, "b": "B"' });
    store.retainPageTitles(['b']);
    expect(values.get('blrms.pageTitles')).toBe('{"a": 1, "b": "B"');
    store.setPageTitle('c', 'C');
    expect(JSON.parse(values.get('blrms.pageTitles') ?? '{}')).toEqual({ c: 'C' });
  });
});
