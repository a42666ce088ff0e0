import type { TDeviceSummary } from '@blrms/contracts';
import { DEVICE_SERIES } from '@blrms/contracts';
import { theme } from 'antd';
import type { BarSeriesOption, PieSeriesOption } from 'echarts/charts';
import { BarChart, PieChart } from 'echarts/charts';
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
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { useChart } from '../../shared/use-chart';

registerEcharts([
  BarChart,
  PieChart,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  SVGRenderer,
]);

type Option = ComposeOption<
  | BarSeriesOption
  | PieSeriesOption
  | GridComponentOption
  | LegendComponentOption
  | TooltipComponentOption
>;

const numberText = (v: unknown) => (typeof v === 'number' ? formatNumber(v) : String(v));

/** Online and offline devices of each series, stacked; every series shows, even with none. */
export function SeriesChart({ data }: { data: TDeviceSummary['bySeries'] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const option = useMemo<Option>(() => {
    const rows = DEVICE_SERIES.map(
      (series) => data.find((d) => d.series === series) ?? { series, total: 0, online: 0 },
    );
    return {
      color: [token.colorSuccess, token.colorTextQuaternary],
      tooltip: { trigger: 'axis', valueFormatter: numberText },
      legend: { top: 0 },
      grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: rows.map((r) => r.series) },
      yAxis: { type: 'value', minInterval: 1, axisLabel: { formatter: numberText } },
      series: [
        {
          name: t('deviceStatus.online'),
          type: 'bar',
          stack: 'devices',
          barMaxWidth: 48,
          data: rows.map((r) => r.online),
        },
        {
          name: t('deviceStatus.offline'),
          type: 'bar',
          stack: 'devices',
          barMaxWidth: 48,
          data: rows.map((r) => r.total - r.online),
        },
      ],
    };
  }, [data, t, token.colorSuccess, token.colorTextQuaternary]);
  const host = useChart(option);
  return <div ref={host} style={{ height: 280 }} data-testid="series-chart" />;
}

/** Devices by firmware version (the ten most common), as a ring. */
export function VersionChart({ data }: { data: TDeviceSummary['byVersion'] }) {
  const { t } = useTranslation();
  // On a phone the labels around the ring would be cut off; the legend names the versions.
  const narrow = useNarrowScreen();
  const option = useMemo<Option>(
    () => ({
      tooltip: {
        trigger: 'item',
        valueFormatter: numberText,
      },
      legend: { type: 'scroll', bottom: 0 },
      series: [
        {
          name: t('dashboard.devices.byVersion'),
          type: 'pie',
          radius: ['40%', '68%'],
          center: ['50%', '45%'],
          label: { show: !narrow, formatter: '{b}: {c}' },
          data: data.map((d) => ({
            name: d.version ?? t('dashboard.devices.noVersion'),
            value: d.total,
          })),
        },
      ],
    }),
    [data, narrow, t],
  );
  const host = useChart(option);
  return <div ref={host} style={{ height: 280 }} data-testid="version-chart" />;
}
