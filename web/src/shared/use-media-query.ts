import { useCallback, useSyncExternalStore } from 'react';

/**
 * Whether a CSS media query matches now, re-rendering when that changes. Read on the first render
 * (antd's breakpoint hook only knows after an effect, and some components keep what they first saw).
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}
