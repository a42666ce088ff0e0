import { useMediaQuery } from './use-media-query';

/** Spec section 9: below 768 px is a phone. */
const NARROW = '(max-width: 767.98px)';

/**
 * Whether the window is phone-sized. Tables pin no columns there: two pinned columns would fill
 * the width and leave nothing to scroll. Known on the first render: ProTable keeps the pinning it
 * first saw.
 */
export function useNarrowScreen(): boolean {
  return useMediaQuery(NARROW);
}
