import { useSyncExternalStore } from 'react';

/** Spec section 9: below 768 px is a phone. */
const NARROW = '(max-width: 767.98px)';

function subscribe(onChange: () => void): () => void {
  const query = window.matchMedia(NARROW);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

/**
 * Whether the window is phone-sized. Tables pin no columns there: two pinned columns would fill
 * the width and leave nothing to scroll. Read from the media query on the first render (antd's
 * breakpoint hook only knows after an effect, and ProTable keeps the pinning it first saw).
 */
export function useNarrowScreen(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(NARROW).matches);
}
