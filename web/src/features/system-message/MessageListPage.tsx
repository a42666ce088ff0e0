import { ProTable, type ProColumns } from '@ant-design/pro-components';
import {
  MESSAGE_CHANNELS,
  MESSAGE_SORT_COLUMNS,
  MESSAGE_STATUSES,
  type TMessage,
  type TMessageChannel,
  type TMessageStatus,
} from '@blrms/contracts';
import { Button, Card, Descriptions, Drawer, Popconfirm, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { MESSAGES_KEY, messageApi, useMessages, type MessageParams } from './message-api';
import { readableContent } from './MessageTemplateModal';
import { CHANNEL_COLORS } from './MessageTemplateListPage';

type Search = {
  channel?: TMessageChannel;
  status?: TMessageStatus;
  receiver?: string;
  templateCode?: string;
  createTime?: [string, string];
};

const DEFAULT_PARAMS: MessageParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

const STATUS_COLORS: Record<TMessageStatus, string> = {
  queued: 'processing',
  sent: 'success',
  failed: 'error',
};

/** 消息记录: what the company's messages did, with manual resends of the failed ones. */
export default function MessageListPage() {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const list = useListPage<MessageParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      channel: values.channel || undefined,
      status: values.status || undefined,
      receiver: values.receiver?.trim() || undefined,
      templateCode: values.templateCode?.trim() || undefined,
      begin: values.createTime?.[0],
      end: values.createTime?.[1],
    }),
    sort: { columns: MESSAGE_SORT_COLUMNS, fallback: 'createTime', cleared: 'column' },
  });
  const messages = useMessages(list.params);
  const [detail, setDetail] = useState<TMessage | null>(null);
  const canResend = useHasAction('system:message:resend');

  const resend = useEntityMutation({
    mutationFn: (id: string) => messageApi.resend(id),
    invalidates: [[MESSAGES_KEY]],
    successMessage: serverMessage,
  });

  const statusTag = (status: TMessageStatus) => (
    <Tag color={STATUS_COLORS[status]} data-testid={`message-status-${status}`}>
      {t(`messageCenter.statuses.${status}`)}
    </Tag>
  );

  const columns: ProColumns<TMessage>[] = [
    {
      title: t('messageCenter.timeRange'),
      dataIndex: 'createTime',
      valueType: 'dateTimeRange',
      hideInTable: true,
    },
    {
      title: t('messageCenter.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      width: 170,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('messageCenter.channel'),
      dataIndex: 'channel',
      valueType: 'select',
      valueEnum: Object.fromEntries(
        MESSAGE_CHANNELS.map((c) => [c, { text: t(`messageCenter.channels.${c}`) }]),
      ),
      width: 110,
      render: (_, row) => (
        <Tag color={CHANNEL_COLORS[row.channel]}>{t(`messageCenter.channels.${row.channel}`)}</Tag>
      ),
    },
    {
      title: t('messageCenter.template'),
      dataIndex: 'templateCode',
      width: 150,
      render: (_, row) =>
        row.templateCode ? <Typography.Text code>{row.templateCode}</Typography.Text> : '-',
    },
    { title: t('messageCenter.receiverCol'), dataIndex: 'receiver', width: 200, ellipsis: true },
    { title: t('messageCenter.title'), dataIndex: 'title', hideInSearch: true, ellipsis: true },
    {
      title: t('messageCenter.status'),
      dataIndex: 'status',
      valueType: 'select',
      valueEnum: Object.fromEntries(
        MESSAGE_STATUSES.map((s) => [s, { text: t(`messageCenter.statuses.${s}`) }]),
      ),
      width: 100,
      render: (_, row) => statusTag(row.status),
    },
    {
      title: t('messageCenter.attempts'),
      dataIndex: 'attempts',
      hideInSearch: true,
      width: 90,
    },
    {
      title: t('messageCenter.lastError'),
      dataIndex: 'lastError',
      hideInSearch: true,
      ellipsis: true,
      width: 220,
    },
    {
      title: t('messageCenter.actions'),
      valueType: 'option',
      width: 140,
      fixed: narrow ? undefined : 'right',
      render: (_, row) => [
        <Button
          key="detail"
          type="link"
          size="small"
          onClick={() => setDetail(row)}
          data-testid={`message-detail-${row.id}`}
        >
          {t('messageCenter.detail')}
        </Button>,
        row.status === 'failed' && canResend && (
          <Popconfirm
            key="resend"
            title={t('messageCenter.resendConfirm')}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() => resend.mutateAsync(row.id)}
          >
            <Button type="link" size="small" data-testid={`message-resend-${row.id}`}>
              {t('messageCenter.resend')}
            </Button>
          </Popconfirm>
        ),
      ],
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="message-page">
      <ProTable<TMessage, Search>
        rowKey="id"
        {...list.tableProps(messages)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        dateFormatter={(value: Dayjs) => value.toISOString()}
        scroll={{ x: 1300 }}
      />
      <Drawer
        open={detail !== null}
        title={t('messageCenter.detailTitle')}
        width={narrow ? '100%' : 560}
        onClose={() => setDetail(null)}
        destroyOnHidden
      >
        {detail && (
          <Descriptions column={1} size="small" bordered data-testid="message-detail">
            <Descriptions.Item label={t('messageCenter.channel')}>
              {t(`messageCenter.channels.${detail.channel}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.template')}>
              {detail.templateCode ?? '-'}
            </Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.receiverCol')}>
              {detail.receiver}
            </Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.status')}>
              {statusTag(detail.status)}
            </Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.attempts')}>
              {detail.attempts}
            </Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.nextAttempt')}>
              {detail.nextAttemptTime ? formatDateTime(detail.nextAttemptTime) : '-'}
            </Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.lastError')}>
              {detail.lastError ?? '-'}
            </Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.createTime')}>
              {formatDateTime(detail.createTime)}
            </Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.sendTime')}>
              {detail.sendTime ? formatDateTime(detail.sendTime) : '-'}
            </Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.title')}>{detail.title}</Descriptions.Item>
            <Descriptions.Item label={t('messageCenter.contentCol')}>
              <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {detail.channel === 'system' ? readableContent(detail.content) : detail.content}
              </div>
            </Descriptions.Item>
          </Descriptions>
        )}
      </Drawer>
    </Card>
  );
}
