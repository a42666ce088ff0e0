import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TDeviceEvent, TEventLevel } from '@blrms/contracts';
import { EVENT_LEVELS } from '@blrms/contracts';
import { Select, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DeviceEventParams } from '../../api/device-data';
import { formatDateTime, formatPageRange } from '../../shared/format';
import { EventLevelTag } from './EventLevelTag';
import { useDeviceEvents } from './use-device-data';

/**
 * A device's events, newest first, filtered by level in the toolbar (a query form above the
 * table would sit between it and the chart). New events of the device join the first page as
 * they arrive (useLiveDeviceData).
 */
export function DeviceEventTable({ deviceId }: { deviceId: string }) {
  const { t } = useTranslation();
  const [params, setParams] = useState<DeviceEventParams>({
    deviceId,
    pageNo: 1,
    pageSize: 10,
    order: 'desc',
  });
  const events = useDeviceEvents(params);

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
      columns={columns}
      ghost
      dataSource={events.data?.records ?? []}
      loading={events.isFetching}
      search={false}
      toolBarRender={() => [
        <Select<TEventLevel>
          key="level"
          allowClear
          placeholder={t('device.monitor.allLevels')}
          value={params.level}
          onChange={(level) => setParams((p) => ({ ...p, pageNo: 1, level }))}
          options={EVENT_LEVELS.map((level) => ({
            value: level,
            label: t(`device.monitor.level.${level}`),
          }))}
          style={{ width: 140 }}
          data-testid="event-level-filter"
        />,
      ]}
      options={{ reload: () => void events.refetch(), density: true, setting: true }}
      cardProps={{ bodyStyle: { padding: 0 } }}
      scroll={{ x: 900 }}
      pagination={{
        current: params.pageNo,
        pageSize: params.pageSize,
        total: events.data?.total ?? 0,
        showSizeChanger: true,
        showTotal: formatPageRange,
        onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
      }}
      data-testid="device-event-table"
    />
  );
}
