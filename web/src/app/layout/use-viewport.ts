import { useMediaQuery } from '../../shared/use-media-query';

/** Spec section 9 breakpoints: mobile below 768 px, tablet below 1088 px. */
const MOBILE = '(max-width: 767.98px)';
const TABLET = '(max-width: 1087.98px)';

export function useViewport(): { isMobile: boolean; isTablet: boolean } {
  const isMobile = useMediaQuery(MOBILE);
  const isTablet = useMediaQuery(TABLET);
  return { isMobile, isTablet: isTablet && !isMobile };
}
