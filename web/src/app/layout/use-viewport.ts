import { useMediaQuery } from '../../shared/use-media-query';
import { useNarrowScreen } from '../../shared/use-narrow-screen';

/** Spec section 9 breakpoints: mobile below 768 px (`useNarrowScreen`), tablet below 1088 px. */
const TABLET = '(max-width: 1087.98px)';

export function useViewport(): { isMobile: boolean; isTablet: boolean } {
  const isMobile = useNarrowScreen();
  const isTablet = useMediaQuery(TABLET);
  return { isMobile, isTablet: isTablet && !isMobile };
}
