import { Grid } from 'antd';

/**
 * Below antd's md breakpoint (768 px, the spec's mobile width). Tables pin no columns there: two
 * pinned columns would fill a phone's width and leave nothing to scroll.
 */
export function useNarrowScreen(): boolean {
  const screens = Grid.useBreakpoint();
  return screens.md === false;
}
