import { Space } from 'antd';
import { useAlarmCounts } from '../../shared/alarm/use-alarm-counts';
import { AlarmSeverityFiguresCard } from './AlarmSeverityCard';
import { AlarmTable } from './AlarmTable';

/**
 * 告警列表 (issue 19): open alarms by severity above the list of alarms, live over the `alarms`
 * channel. A figure or the header's count opens the list filtered to it (through the URL).
 */
export default function AlarmListPage() {
  const counts = useAlarmCounts();
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="alarm-page">
      <AlarmSeverityFiguresCard counts={counts.data} loading={counts.isPending} />
      <AlarmTable />
    </Space>
  );
}
