import type { TDeviceTelemetryPoint } from '@blrms/contracts';
import { theme } from 'antd';
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
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useChart } from '../../shared/use-chart';
import { byTelemetryKey, telemetryLabel } from './telemetry-label';

registerEcharts([LineChart, GridComponent, LegendComponent, TooltipComponent, SVGRenderer]);

type Option = ComposeOption<
  LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

/** Digital inputs and outputs are 0 or 1: drawn as steps, not slopes. */
const DIGITAL = /^d[io]\d+$/;

/**
 * Signal strength (dBm, left axis) and the inputs (right axis) over time. Its own chunk, loaded
 * when the monitoring tab is first shown, so the rest of the device pages load no ECharts.
 */
export default function TelemetryChart({ points }: { points: TDeviceTelemetryPoint[] }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const option = useMemo<Option>(() => {
    const keys = [...new Set(points.flatMap((p) => Object.keys(p.values)))].sort(byTelemetryKey);
    const hasSignal = keys.includes('signal');
    const inputs = keys.filter((key) => key !== 'signal');
    const axisName = { nameTextStyle: { color: token.colorTextSecondary } };
    return {
      tooltip: {
        trigger: 'axis',
        axisPointer: { type: 'line' },
        valueFormatter: (v) => (typeof v === 'number' ? String(v) : '-'),
      },
      legend: { type: 'scroll', top: 0 },
      grid: { left: 8, right: 8, top: 48, bottom: 8, containLabel: true },
      xAxis: {
        type: 'time',
        axisLabel: { hideOverlap: true },
      },
      yAxis: [
        {
          type: 'value',
          name: hasSignal ? 'dBm' : '',
          scale: true,
          show: hasSignal,
          ...axisName,
        },
        {
          type: 'value',
          name: inputs.length > 0 ? t('device.monitor.inputs') : '',
          scale: true,
          show: inputs.length > 0,
          splitLine: { show: !hasSignal },
          ...axisName,
        },
      ],
      series: keys.map((key) => ({
        id: key,
        name: telemetryLabel(t, key),
        type: 'line',
        yAxisIndex: key === 'signal' ? 0 : 1,
        step: DIGITAL.test(key) ? 'end' : undefined,
        showSymbol: points.length <= 60,
        symbolSize: 4,
        data: points.flatMap((p) => {
          const value = p.values[key];
          return value === undefined ? [] : [[Date.parse(p.ts), value]];
        }),
      })),
    };
  }, [points, t, token.colorTextSecondary]);
  const host = useChart(option);
  return <div ref={host} style={{ height: 300, width: '100%' }} data-testid="telemetry-chart" />;
}
