import type { TVisitInfo } from '@blrms/contracts';
import { theme } from 'antd';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import { BarChart, LineChart } from 'echarts/charts';
import type {
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { use as registerEcharts } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../shared/format';
import { useChart } from '../../shared/use-chart';

// Only the parts this chart uses are bundled.
registerEcharts([
  BarChart,
  LineChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  SVGRenderer,
]);

type Option = ComposeOption<
  | BarSeriesOption
  | LineSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
>;

/** Visits (bars) and distinct IPs (line) of the last 7 days. */
export function VisitChart({ data }: { data: TVisitInfo }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const option = useMemo<Option>(
    () => ({
      color: [token.colorPrimary, token.colorWarning],
      tooltip: {
        trigger: 'axis',
        valueFormatter: (v) => (typeof v === 'number' ? formatNumber(v) : String(v)),
      },
      legend: { top: 0 },
      grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: data.map((d) => d.ymd.slice(5)) },
      yAxis: {
        type: 'value',
        minInterval: 1,
        axisLabel: { formatter: (v: number) => formatNumber(v) },
      },
      series: [
        {
          name: t('dashboard.visits'),
          type: 'bar',
          barMaxWidth: 32,
          data: data.map((d) => d.visit),
        },
        { name: t('dashboard.ips'), type: 'line', data: data.map((d) => d.ip) },
      ],
    }),
    [data, t, token.colorPrimary, token.colorWarning],
  );
  const host = useChart(option);

  return <div ref={host} style={{ height: 300 }} data-testid="visit-chart" />;
}
