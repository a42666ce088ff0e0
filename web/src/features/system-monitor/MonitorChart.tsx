import type { LineSeriesOption } from 'echarts/charts';
import { LineChart } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { use as registerEcharts } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { Typography } from 'antd';
import { useMemo } from 'react';
import { useChart } from '../../shared/use-chart';

// Only the parts these charts use are bundled.
registerEcharts([LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

type Option = ComposeOption<
  LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

export type ChartSeries = { name: string; points: [time: string, value: number | null][] };

/** A time chart of a few lines (one per node, or per measure), redrawn in place on refresh. */
export function MonitorChart({
  title,
  series,
  testId,
}: {
  title: string;
  series: ChartSeries[];
  testId: string;
}) {
  const option = useMemo<Option>(
    () => ({
      tooltip: { trigger: 'axis' },
      legend: { top: 0, type: 'scroll' },
      grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
      xAxis: { type: 'time', axisLabel: { hideOverlap: true } },
      yAxis: { type: 'value' },
      series: series.map((s) => ({
        name: s.name,
        type: 'line',
        showSymbol: false,
        data: s.points,
      })),
    }),
    [series],
  );
  const host = useChart(option);
  return (
    <div>
      <Typography.Text strong>{title}</Typography.Text>
      <div ref={host} style={{ height: 240 }} data-testid={testId} />
    </div>
  );
}
