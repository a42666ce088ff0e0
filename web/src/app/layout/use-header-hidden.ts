import { useEffect, useState } from 'react';

/** Spec section 9: the header hides once the page is scrolled down past 100 px. */
const HIDE_AFTER_PX = 100;

export function useHeaderHidden(enabled: boolean): boolean {
  const [hidden, setHidden] = useState(false);

  useEffect(() => {
    if (!enabled) return;
    let lastY = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      // Scrolling up brings it back, so the menu is never out of reach for long.
      setHidden(y > HIDE_AFTER_PX && y > lastY);
      lastY = y;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, [enabled]);

  return enabled && hidden;
}
