import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import {
  MESSAGE_CHANNELS,
  MESSAGE_TEMPLATE_SORT_COLUMNS,
  type TMessageChannel,
  type TMessageTemplate,
} from '@blrms/contracts';
import { Button, Card, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { messageApi, TEMPLATES_KEY, useTemplates, type TemplateParams } from './message-api';
import { MessageTemplateModal } from './MessageTemplateModal';
import { SendTestModal } from './SendTestModal';

type Search = { code?: string; name?: string; channel?: TMessageChannel };

const DEFAULT_PARAMS: TemplateParams = { pageNo: 1, pageSize: 10, column: 'code', order: 'asc' };

export const CHANNEL_COLORS: Record<TMessageChannel, string> = {
  system: 'blue',
  email: 'green',
  sms: 'orange',
  webhook: 'purple',
};

/** 消息模板: the company's templates and the platform's it inherits (and may customize). */
export default function MessageTemplateListPage() {
  const { t } = useTranslation();
  const list = useListPage<TemplateParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      code: values.code?.trim() || undefined,
      name: values.name?.trim() || undefined,
      channel: values.channel || undefined,
    }),
    sort: { columns: MESSAGE_TEMPLATE_SORT_COLUMNS, fallback: 'code', cleared: 'column' },
  });
  const templates = useTemplates(list.params);
  const [editing, setEditing] = useState<
    { template: TMessageTemplate | null; copy: boolean } | undefined
  >(undefined);
  const [testing, setTesting] = useState<TMessageTemplate | null>(null);
  const canAdd = useHasAction('system:message:template:add');
  const canEdit = useHasAction('system:message:template:edit');
  const canDelete = useHasAction('system:message:template:delete');
  const canTest = useHasAction('system:message:template:test');

  const remove = useEntityMutation({
    mutationFn: (id: string) => messageApi.deleteTemplate(id),
    invalidates: [[TEMPLATES_KEY]],
    successMessage: serverMessage,
  });

  const channelOptions = Object.fromEntries(
    MESSAGE_CHANNELS.map((c) => [c, { text: t(`messageCenter.channels.${c}`) }]),
  );

  const columns: ProColumns<TMessageTemplate>[] = [
    {
      title: t('messageCenter.code'),
      dataIndex: 'code',
      key: 'code',
      sorter: true,
      defaultSortOrder: 'ascend',
      width: 180,
      render: (_, row) => <Typography.Text code>{row.code}</Typography.Text>,
    },
    { title: t('messageCenter.name'), dataIndex: 'name', key: 'name', sorter: true, width: 160 },
    {
      title: t('messageCenter.channel'),
      dataIndex: 'channel',
      valueType: 'select',
      valueEnum: channelOptions,
      width: 120,
      render: (_, row) => (
        <Tag color={CHANNEL_COLORS[row.channel]}>{t(`messageCenter.channels.${row.channel}`)}</Tag>
      ),
    },
    {
      title: t('messageCenter.subject'),
      dataIndex: 'subject',
      hideInSearch: true,
      ellipsis: true,
      render: (_, row) =>
        row.subject || <Typography.Text type="secondary">{row.content}</Typography.Text>,
    },
    {
      title: t('messageCenter.source'),
      dataIndex: 'inherited',
      hideInSearch: true,
      width: 150,
      render: (_, row) => (
        <Space size={4} wrap>
          <Tag>{row.inherited ? t('messageCenter.inherited') : t('messageCenter.own')}</Tag>
          {row.builtIn && <Tag color="gold">{t('messageCenter.builtIn')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('messageCenter.enabled'),
      dataIndex: 'enabled',
      hideInSearch: true,
      width: 80,
      render: (_, row) =>
        row.enabled ? (
          <Tag color="success">{t('common.enabled')}</Tag>
        ) : (
          <Tag>{t('common.disabled')}</Tag>
        ),
    },
    {
      title: t('messageCenter.updateTime'),
      dataIndex: 'updateTime',
      hideInSearch: true,
      width: 170,
      render: (_, row) => formatDateTime(row.updateTime ?? row.createTime),
    },
    {
      title: t('messageCenter.actions'),
      valueType: 'option',
      width: 200,
      fixed: 'right',
      render: (_, row) => [
        canTest && (
          <Button
            key="test"
            type="link"
            size="small"
            onClick={() => setTesting(row)}
            data-testid={`template-test-${row.code}-${row.channel}`}
          >
            {t('messageCenter.sendTest')}
          </Button>
        ),
        row.inherited
          ? canAdd && (
              <Button
                key="customize"
                type="link"
                size="small"
                onClick={() => setEditing({ template: row, copy: true })}
                data-testid={`template-customize-${row.code}-${row.channel}`}
              >
                {t('messageCenter.customize')}
              </Button>
            )
          : canEdit && (
              <Button
                key="edit"
                type="link"
                size="small"
                onClick={() => setEditing({ template: row, copy: false })}
                data-testid={`template-edit-${row.code}-${row.channel}`}
              >
                {t('messageCenter.editShort')}
              </Button>
            ),
        !row.inherited && !row.builtIn && canDelete && (
          <Popconfirm
            key="delete"
            title={t('messageCenter.deleteConfirm', { code: row.code })}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id)}
          >
            <Button
              type="link"
              size="small"
              danger
              data-testid={`template-delete-${row.code}-${row.channel}`}
            >
              {t('messageCenter.delete')}
            </Button>
          </Popconfirm>
        ),
      ],
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="message-template-page">
      <ProTable<TMessageTemplate, Search>
        rowKey="id"
        {...list.tableProps(templates)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        scroll={{ x: 1100 }}
        toolBarRender={() => [
          canAdd && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing({ template: null, copy: false })}
              data-testid="template-add"
            >
              {t('messageCenter.add')}
            </Button>
          ),
        ]}
      />
      {editing && (
        <MessageTemplateModal
          template={editing.template}
          copy={editing.copy}
          onClose={() => setEditing(undefined)}
        />
      )}
      {testing && <SendTestModal template={testing} onClose={() => setTesting(null)} />}
    </Card>
  );
}
