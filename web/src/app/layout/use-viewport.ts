import { useSyncExternalStore } from 'react';

/** Spec section 9 breakpoints: mobile below 768 px, tablet below 1088 px. */
const MOBILE = '(max-width: 767.98px)';
const TABLET = '(max-width: 1087.98px)';

function subscribe(listener: () => void): () => void {
  const queries = [MOBILE, TABLET].map((q) => window.matchMedia(q));
  queries.forEach((q) => q.addEventListener('change', listener));
  return () => queries.forEach((q) => q.removeEventListener('change', listener));
}

function useMedia(query: string): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

export function useViewport(): { isMobile: boolean; isTablet: boolean } {
  const isMobile = useMedia(MOBILE);
  const isTablet = useMedia(TABLET);
  return { isMobile, isTablet: isTablet && !isMobile };
}
