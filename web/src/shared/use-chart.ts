import type { ECharts, EChartsCoreOption } from 'echarts/core';
import { init } from 'echarts/core';
import { useEffect, useRef } from 'react';

/**
 * An ECharts instance (SVG renderer) on the returned element, following its size and showing
 * `option` whenever it changes (callers memoize it, so a re-render does not redraw). A new option
 * is merged into the shown one, with its series replaced: live data then moves the lines and bars
 * instead of drawing the chart again from nothing, and what the user hid in the legend stays
 * hidden.
 */
export function useChart(option: EChartsCoreOption) {
  const host = useRef<HTMLDivElement>(null);
  const chart = useRef<ECharts | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const instance = init(host.current, undefined, { renderer: 'svg' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(host.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { replaceMerge: ['series'] });
  }, [option]);

  return host;
}
