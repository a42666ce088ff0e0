import { Card, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  DatabasePanel,
  DiskPanel,
  MqttPanel,
  NodesPanel,
  RedisPanel,
  TracePanel,
} from './MonitorPanels';
import { REFRESH_MS } from './use-monitor';

const TABS = [
  { key: 'nodes', label: 'sysMonitor.tabNodes', Panel: NodesPanel },
  { key: 'database', label: 'sysMonitor.tabDatabase', Panel: DatabasePanel },
  { key: 'mqtt', label: 'sysMonitor.tabMqtt', Panel: MqttPanel },
  { key: 'redis', label: 'sysMonitor.tabRedis', Panel: RedisPanel },
  { key: 'disk', label: 'sysMonitor.tabDisk', Panel: DiskPanel },
  { key: 'trace', label: 'sysMonitor.tabTrace', Panel: TracePanel },
] as const;

/**
 * 系统监控 (platform administrators): every server node, the database, MQTT, Redis, the disk of
 * DATA_DIR and the request trace. Only the open tab is mounted, so only its data refreshes.
 */
export default function MonitorPage() {
  const { t } = useTranslation();
  const [active, setActive] = useState<string>('nodes');
  return (
    <Card styles={{ body: { paddingTop: 8 } }} data-testid="monitor-page">
      <Typography.Text type="secondary">
        {t('sysMonitor.refreshing', { seconds: REFRESH_MS / 1000 })}
      </Typography.Text>
      <Tabs
        activeKey={active}
        onChange={setActive}
        destroyOnHidden
        items={TABS.map(({ key, label, Panel }) => ({
          key,
          label: <span data-testid={`monitor-tab-${key}`}>{t(label)}</span>,
          children: <Panel />,
        }))}
      />
    </Card>
  );
}
