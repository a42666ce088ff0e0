import { useEffect, useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';
import { SESSION_KEYS } from './storage';

type Titles = Readonly<Record<string, string>>;

function load(): Titles {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(SESSION_KEYS.pageTitles) ?? '{}');
    if (typeof saved !== 'object' || saved === null) return {};
    return Object.fromEntries(
      Object.entries(saved).filter((entry): entry is [string, string] => {
        return typeof entry[1] === 'string';
      }),
    );
  } catch {
    return {};
  }
}

/**
 * Titles that pages opened at a parameterised path give themselves, by pathname: each device's
 * detail tab is named after its device instead of "Device detail". Kept in sessionStorage next
 * to the open tabs, so a reload keeps the tab names.
 */
let titles: Titles = load();
const listeners = new Set<() => void>();

function set(next: Titles): void {
  titles = next;
  sessionStorage.setItem(SESSION_KEYS.pageTitles, JSON.stringify(next));
  listeners.forEach((l) => l());
}

export function setPageTitle(pathname: string, title: string): void {
  if (titles[pathname] !== title) set({ ...titles, [pathname]: title });
}

/** Forgets the titles of pages that are no longer open. */
export function retainPageTitles(pathnames: readonly string[]): void {
  const kept = Object.fromEntries(
    Object.entries(titles).filter(([path]) => pathnames.includes(path)),
  );
  if (Object.keys(kept).length !== Object.keys(titles).length) set(kept);
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function usePageTitles(): Titles {
  return useSyncExternalStore(subscribe, () => titles);
}

/** Names the current page (its tab, last breadcrumb and window title) once `title` is known. */
export function usePageTitle(title: string | undefined): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (title) setPageTitle(pathname, title);
  }, [pathname, title]);
}
