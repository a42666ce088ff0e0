import type { ComponentType } from 'react';
import { createElement, lazy, useState } from 'react';

type Module<P> = { default: ComponentType<P> };

/**
 * A component in a chunk of its own that can be loaded ahead of its first render. `React.lazy`
 * alone suspends on every first render, even when the chunk has long arrived: the boundary shows
 * its fallback and React 19 then holds the content back for up to 300 ms (its fallback throttle),
 * which was a third of the time from sign-in to the dashboard. Once `load` has resolved, the
 * component renders the loaded one directly, without suspending.
 */
export function preloadable<P extends object>(
  loader: () => Promise<Module<P>>,
): { Component: ComponentType<P>; load: () => Promise<void> } {
  let loaded: ComponentType<P> | undefined;
  const load = () =>
    loader().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(load);
  function Component(props: P) {
    // Chosen once per mount: switching from the lazy wrapper to the loaded component on a later
    // render would remount everything below it.
    const [Loaded] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return createElement(Loaded, props);
  }
  return { Component, load: () => load().then(() => undefined) };
}
