import { SITE_HEALTH, type TSiteHealth } from '@blrms/contracts';

/** Marker colours (antd's palette): red alarm, grey all offline, orange some, green all online. */
export const HEALTH_COLOURS: Record<TSiteHealth, { fill: string; stroke: string }> = {
  alarm: { fill: '#f5222d', stroke: '#820014' },
  offline: { fill: '#8c8c8c', stroke: '#262626' },
  partial: { fill: '#fa8c16', stroke: '#873800' },
  online: { fill: '#52c41a', stroke: '#135200' },
  empty: { fill: '#ffffff', stroke: '#595959' },
};

/** Drawing order: the worst on top where markers overlap. */
export const DRAW_ORDER: readonly TSiteHealth[] = [...SITE_HEALTH].reverse();
