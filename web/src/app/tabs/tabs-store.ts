import { useSyncExternalStore } from 'react';
import { HOME_PATH } from '../../shared/paths';
import { SESSION_KEYS } from '../../shared/storage';

export type TabsState = {
  /** Open pages by pathname; when the user has the home page, it is always first. */
  paths: string[];
  /** Bumped by "refresh" so the page is mounted anew. */
  refresh: Record<string, number>;
};

export type CloseRefusal = 'home' | 'last';

function load(): string[] {
  try {
    const saved: unknown = JSON.parse(sessionStorage.getItem(SESSION_KEYS.tabs) ?? '[]');
    return Array.isArray(saved) ? saved.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

let state: TabsState = { paths: load(), refresh: {} };
let homePinned = false;
const listeners = new Set<() => void>();

function set(next: TabsState): void {
  state = next;
  sessionStorage.setItem(SESSION_KEYS.tabs, JSON.stringify(next.paths));
  listeners.forEach((l) => l());
}

/** Keeps the tabs matching `predicate`, and the pinned home tab whatever it says. */
function keep(predicate: (path: string, index: number) => boolean): void {
  const kept = state.paths.filter((p, i) => (homePinned && p === HOME_PATH) || predicate(p, i));
  set({ ...state, paths: kept });
}

export const tabs = {
  paths(): string[] {
    return state.paths;
  },
  /** The home tab is pinned first when the user's menu has the home page. */
  pinHome(pinned: boolean): void {
    homePinned = pinned;
    const others = state.paths.filter((p) => p !== HOME_PATH);
    const paths = pinned ? [HOME_PATH, ...others] : others;
    if (paths.join('\n') !== state.paths.join('\n')) set({ ...state, paths });
  },
  open(path: string): void {
    if (!state.paths.includes(path)) set({ ...state, paths: [...state.paths, path] });
  },
  /** Spec section 2: the home tab cannot be closed, nor can the last remaining tab. */
  close(path: string): CloseRefusal | null {
    if (homePinned && path === HOME_PATH) return 'home';
    if (state.paths.length <= 1) return 'last';
    keep((p) => p !== path);
    return null;
  },
  closeLeft(path: string): void {
    const at = state.paths.indexOf(path);
    keep((_, i) => i >= at);
  },
  closeRight(path: string): void {
    const at = state.paths.indexOf(path);
    keep((_, i) => i <= at);
  },
  closeOthers(path: string): void {
    keep((p) => p === path);
  },
  refresh(path: string): void {
    set({ ...state, refresh: { ...state.refresh, [path]: (state.refresh[path] ?? 0) + 1 } });
  },
};

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useTabs(): TabsState {
  return useSyncExternalStore(subscribe, () => state);
}
