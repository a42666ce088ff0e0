import { ProTable, type ProColumns } from '@ant-design/pro-components';
import type { TAnnouncement } from '@blrms/contracts';
import {
  ANNOUNCEMENT_PRIORITIES,
  ANNOUNCEMENT_SORT_COLUMNS,
  ZAnnouncementCategory,
  ZAnnouncementSendStatus,
} from '@blrms/contracts';
import { App, Button, Card, Popconfirm, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PriorityTag } from '../../shared/announcement/PriorityTag';
import { useListPage } from '../../shared/entity/use-list-page';
import { dictValueEnum, useDictOptions } from '../../shared/use-dict-items';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { AnnouncementForm } from './AnnouncementForm';
import { AnnouncementPreview } from './AnnouncementPreview';
import type { AnnouncementParams } from './use-announcements';
import {
  announcementAdminApi,
  useAnnouncements,
  useReloadAnnouncements,
} from './use-announcements';

const DEFAULT_PARAMS: AnnouncementParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

type Search = {
  titile?: string;
  priority?: 'L' | 'M' | 'H';
  sendStatus?: '0' | '1' | '2';
  msgCategory?: '1' | '2';
};

const STATUS_COLOR = { '0': 'default', '1': 'success', '2': 'warning' } as const;

/** 通告管理 (spec sections 2, 3, 7): drafts, publish (doReleaseData), revoke (doReovkeData). */
export default function AnnouncementListPage() {
  const { t } = useTranslation();
  // Labels and order from the dictionaries; the values stay the contract's, which the server checks.
  const priorities = useDictOptions(
    'priority',
    ANNOUNCEMENT_PRIORITIES,
    ANNOUNCEMENT_PRIORITIES.map((p) => ({ value: p, label: t(`notice.priority.${p}`) })),
  );
  const categories = useDictOptions(
    'msg_category',
    ZAnnouncementCategory.options,
    ZAnnouncementCategory.options.map((c) => ({
      value: c,
      label: t(`announcement.categories.${c}`),
    })),
  );
  const statuses = useDictOptions(
    'send_status',
    ZAnnouncementSendStatus.options,
    ZAnnouncementSendStatus.options.map((c) => ({
      value: c,
      label: t(`announcement.statuses.${c}`),
    })),
  );
  const { message } = App.useApp();
  const page = useListPage<AnnouncementParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      titile: values.titile?.trim() || undefined,
      priority: values.priority,
      sendStatus: values.sendStatus,
      msgCategory: values.msgCategory,
    }),
    sort: { columns: ANNOUNCEMENT_SORT_COLUMNS, fallback: 'createTime', cleared: 'column' },
  });
  const [editing, setEditing] = useState<TAnnouncement | 'new' | null>(null);
  const [previewing, setPreviewing] = useState<TAnnouncement | null>(null);
  const list = useAnnouncements(page.params);
  const reload = useReloadAnnouncements();
  const can = {
    add: useHasAction('system:announcement:add'),
    edit: useHasAction('system:announcement:edit'),
    delete: useHasAction('system:announcement:delete'),
    release: useHasAction('system:announcement:release'),
    revoke: useHasAction('system:announcement:revoke'),
  };

  const act = async (call: () => Promise<{ message: string }>, fallback: string) => {
    try {
      const res = await call();
      void message.success(res.message || fallback);
      void reload();
    } catch {
      // Reported by the HTTP client.
    }
  };

  const columns: ProColumns<TAnnouncement>[] = [
    {
      title: t('announcement.title'),
      dataIndex: 'titile',
      width: 260,
      ellipsis: true,
      render: (_, row) => (
        <a onClick={() => setPreviewing(row)} data-testid="announcement-row-title">
          {row.titile}
        </a>
      ),
    },
    {
      title: t('announcement.priority'),
      dataIndex: 'priority',
      width: 110,
      sorter: true,
      valueEnum: dictValueEnum(priorities),
      render: (_, row) => <PriorityTag priority={row.priority} />,
    },
    {
      title: t('announcement.category'),
      dataIndex: 'msgCategory',
      width: 120,
      valueEnum: dictValueEnum(categories),
    },
    {
      title: t('announcement.audience'),
      dataIndex: 'msgType',
      width: 110,
      hideInSearch: true,
      render: (_, row) => t(`announcement.audiences.${row.msgType}`),
    },
    {
      title: t('announcement.status'),
      dataIndex: 'sendStatus',
      width: 100,
      valueEnum: dictValueEnum(statuses),
      render: (_, row) => (
        <Tag color={STATUS_COLOR[row.sendStatus]} data-testid="announcement-status">
          {t(`announcement.statuses.${row.sendStatus}`)}
        </Tag>
      ),
    },
    { title: t('announcement.sender'), dataIndex: 'sender', width: 110, hideInSearch: true },
    {
      title: t('announcement.sendTime'),
      dataIndex: 'sendTime',
      key: 'sendTime',
      width: 170,
      sorter: true,
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.sendTime),
    },
    {
      title: t('announcement.recipients'),
      key: 'recipients',
      width: 130,
      hideInSearch: true,
      render: (_, row) => (row.sendStatus === '0' ? '-' : `${row.readCount} / ${row.recipients}`),
    },
    {
      title: t('announcement.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      width: 170,
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('announcement.actions'),
      key: 'actions',
      width: 200,
      fixed: 'right',
      hideInSearch: true,
      render: (_, row) => (
        <Space size="small" wrap>
          {row.sendStatus === '0' && can.edit && (
            <a onClick={() => setEditing(row)}>{t('announcement.edit')}</a>
          )}
          {row.sendStatus === '0' && can.release && (
            <Popconfirm
              title={t('announcement.releaseConfirm')}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              onConfirm={() =>
                act(() => announcementAdminApi.release(row.id), t('announcement.release'))
              }
            >
              <a data-testid="announcement-release">{t('announcement.release')}</a>
            </Popconfirm>
          )}
          {row.sendStatus === '1' && can.revoke && (
            <Popconfirm
              title={t('announcement.revokeConfirm')}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              onConfirm={() =>
                act(() => announcementAdminApi.revoke(row.id), t('announcement.revoke'))
              }
            >
              <a data-testid="announcement-revoke">{t('announcement.revoke')}</a>
            </Popconfirm>
          )}
          {can.delete && (
            <Popconfirm
              title={t('announcement.deleteConfirm')}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              onConfirm={() =>
                act(() => announcementAdminApi.remove(row.id), t('announcement.deleted'))
              }
            >
              <a>{t('announcement.delete')}</a>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card styles={{ body: { paddingTop: 8 } }} data-testid="announcement-page">
      <ProTable<TAnnouncement, Search>
        rowKey="id"
        {...page.tableProps(list)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        cardProps={{ bodyStyle: { padding: 0 } }}
        scroll={{ x: 1500 }}
        toolBarRender={() =>
          can.add
            ? [
                <Button
                  key="add"
                  type="primary"
                  onClick={() => setEditing('new')}
                  data-testid="announcement-add"
                >
                  {t('announcement.add')}
                </Button>,
              ]
            : []
        }
        data-testid="announcement-table"
      />
      <AnnouncementForm editing={editing} onClose={() => setEditing(null)} onSaved={reload} />
      <AnnouncementPreview announcement={previewing} onClose={() => setPreviewing(null)} />
    </Card>
  );
}
