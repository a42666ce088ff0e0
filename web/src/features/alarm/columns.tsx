import type { ProColumns } from '@ant-design/pro-components';
import type { TAlarm } from '@blrms/contracts';
import { ALARM_SEVERITIES, ALARM_STATES } from '@blrms/contracts';
import { Space, Tooltip, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDateTime } from '../../shared/format';
import { AlarmSeverityTag, AlarmStateTag } from './AlarmTags';

type Option = { value: string; label: string };

export type AlarmColumnOptions = {
  /** The device's own tab: no device or group column or filter. */
  oneDevice: boolean;
  pinColumns: boolean;
  rules: Option[] | null;
  groups: Option[];
  actions: (row: TAlarm) => ReactNode;
};

/** Who and when, with the comment on hover. */
function byWhen(by: string, time: string, comment: string | null) {
  const text = (
    <Space direction="vertical" size={0}>
      <span>{by}</span>
      <Typography.Text type="secondary">{formatDateTime(time)}</Typography.Text>
    </Space>
  );
  return comment ? <Tooltip title={comment}>{text}</Tooltip> : text;
}

/** The alarm table's columns and its filter form's fields (severity, state, rule, device, group, time). */
export function alarmColumns(t: TFunction, o: AlarmColumnOptions): ProColumns<TAlarm>[] {
  const all: (ProColumns<TAlarm> | false)[] = [
    {
      title: t('alarm.severity'),
      dataIndex: 'severity',
      width: 90,
      fixed: o.pinColumns ? 'left' : undefined,
      valueType: 'select',
      fieldProps: {
        mode: 'multiple',
        options: ALARM_SEVERITIES.map((s) => ({ value: s, label: t(`alarm.severities.${s}`) })),
      },
      render: (_, row) => <AlarmSeverityTag severity={row.severity} />,
    },
    {
      title: t('alarm.state'),
      dataIndex: 'state',
      width: 100,
      valueType: 'select',
      fieldProps: {
        mode: 'multiple',
        options: ALARM_STATES.map((s) => ({ value: s, label: t(`alarm.states.${s}`) })),
      },
      render: (_, row) => <AlarmStateTag state={row.state} />,
    },
    !o.oneDevice && {
      title: t('alarm.device'),
      dataIndex: 'sn',
      width: 180,
      formItemProps: { label: t('alarm.snOrName') },
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Link to={`/device/detail/${row.deviceId}`} data-testid="alarm-device">
            {row.deviceName}
          </Link>
          <Typography.Text type="secondary">{row.sn}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('alarm.rule'),
      dataIndex: 'ruleId',
      width: 150,
      ellipsis: true,
      hideInSearch: o.rules === null,
      valueType: 'select',
      fieldProps: { showSearch: true, optionFilterProp: 'label', options: o.rules ?? [] },
      render: (_, row) => (row.ruleId ? row.ruleName : `${row.ruleName} ${t('alarm.ruleDeleted')}`),
    },
    {
      title: t('alarm.lastTime'),
      key: 'lastTime',
      width: 170,
      hideInSearch: true,
      render: (_, row) => (
        <Tooltip title={`${t('alarm.firstTime')}: ${formatDateTime(row.firstTime)}`}>
          {formatDateTime(row.lastTime)}
        </Tooltip>
      ),
    },
    {
      title: t('alarm.message'),
      dataIndex: 'message',
      width: 240,
      hideInSearch: true,
      render: (_, row) => (
        <Typography.Text ellipsis={{ tooltip: row.message }} style={{ maxWidth: 224 }}>
          <span data-testid="alarm-message">{row.message}</span>
        </Typography.Text>
      ),
    },
    !o.oneDevice && {
      title: t('alarm.group'),
      dataIndex: 'groupId',
      hideInTable: true,
      valueType: 'select',
      fieldProps: { showSearch: true, optionFilterProp: 'label', options: o.groups },
    },
    {
      title: t('alarm.value'),
      dataIndex: 'value',
      width: 90,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => row.value ?? '-',
    },
    {
      title: t('alarm.count'),
      dataIndex: 'count',
      width: 70,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => <span data-testid="alarm-count">{row.count}</span>,
    },
    {
      title: t('alarm.timeRange'),
      dataIndex: 'lastTime',
      valueType: 'dateTimeRange',
      hideInTable: true,
    },
    {
      title: t('alarm.ackInfo'),
      key: 'ack',
      width: 160,
      hideInSearch: true,
      render: (_, row) =>
        row.ackTime ? byWhen(row.ackBy ?? '-', row.ackTime, row.ackComment) : '-',
    },
    {
      title: t('alarm.clearInfo'),
      key: 'clear',
      width: 160,
      hideInSearch: true,
      render: (_, row) =>
        row.clearTime
          ? byWhen(
              row.clearBy ??
                (row.clearReason
                  ? t(`alarm.clearReasons.${row.clearReason}`)
                  : t('alarm.byCondition')),
              row.clearTime,
              row.clearComment,
            )
          : '-',
    },
    {
      title: t('common.actions'),
      key: 'actions',
      width: 220,
      fixed: o.pinColumns ? 'right' : undefined,
      hideInSearch: true,
      render: (_, row) => o.actions(row),
    },
  ];
  return all.filter((c): c is ProColumns<TAlarm> => c !== false);
}
