import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TDeviceEvent, TEventLevel } from '@blrms/contracts';
import { EVENT_LEVELS } from '@blrms/contracts';
import { Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DeviceEventParams } from '../../api/device-data';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { EventLevelTag } from './EventLevelTag';
import { useDeviceEvents } from './use-device-data';

/**
 * A device's events, newest first, filtered by level in the toolbar (a query form above the
 * table would sit between it and the chart). New events of the device join the first page as
 * they arrive (useLiveDeviceData).
 */
export function DeviceEventTable({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const list = useListPage<DeviceEventParams, { level?: TEventLevel }>({
    defaults: { deviceId, pageNo: 1, pageSize: 10, order: 'desc' },
    filters: ({ level }) => ({ level }),
  });
  const events = useDeviceEvents(list.params);

  const columns: ProColumns<TDeviceEvent>[] = [
    {
      title: t('device.monitor.eventTime'),
      dataIndex: 'ts',
      width: 170,
      render: (_, row) => formatDateTime(row.ts),
    },
    {
      title: t('device.monitor.eventLevel'),
      dataIndex: 'level',
      width: 100,
      render: (_, row) => <EventLevelTag level={row.level} />,
    },
    {
      title: t('device.monitor.eventCode'),
      dataIndex: 'code',
      width: 160,
      ellipsis: true,
    },
    {
      title: t('device.monitor.eventMessage'),
      dataIndex: 'message',
      ellipsis: true,
      render: (_, row) => row.message || '-',
    },
    {
      title: t('device.monitor.eventSource'),
      dataIndex: 'source',
      width: 100,
      render: (_, row) => (
        <Tag bordered={false} color={row.source === 'platform' ? 'purple' : undefined}>
          {t(`device.monitor.source.${row.source}`)}
        </Tag>
      ),
    },
    {
      title: t('device.monitor.receivedAt'),
      dataIndex: 'receivedAt',
      width: 170,
      render: (_, row) => formatDateTime(row.receivedAt),
    },
  ];

  return (
    <ProTable<TDeviceEvent>
      rowKey="id"
      headerTitle={t('device.monitor.events')}
      {...list.tableProps(events)}
      columns={columns}
      ghost
      search={false}
      toolBarRender={() => [
        <Select<TEventLevel>
          key="level"
          allowClear
          placeholder={t('device.monitor.allLevels')}
          value={list.params.level}
          onChange={(level) => list.search({ level })}
          options={EVENT_LEVELS.map((level) => ({
            value: level,
            label: t(`device.monitor.level.${level}`),
          }))}
          style={{ width: 140 }}
          data-testid="event-level-filter"
        />,
      ]}
      cardProps={{ bodyStyle: { padding: 0 } }}
      scroll={{ x: 900 }}
      data-testid="device-event-table"
    />
  );
}
