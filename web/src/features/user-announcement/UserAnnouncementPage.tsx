import { ProTable, type ProColumns } from '@ant-design/pro-components';
import {
  ANNOUNCEMENT_PRIORITIES,
  ZAnnouncementCategory,
  type TUserAnnouncement,
  type TUserAnnouncementPage,
  type TUserAnnouncementQuery,
} from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { App, Badge, Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http } from '../../api/client';
import { AnnouncementDetailModal } from '../../shared/announcement/AnnouncementDetailModal';
import {
  MY_ANNOUNCEMENTS_KEY,
  announcementApi,
  useReloadMyAnnouncements,
} from '../../shared/announcement/announcement-api';
import { PriorityTag } from '../../shared/announcement/PriorityTag';
import { useListPage } from '../../shared/entity/use-list-page';
import { dictValueEnum, useDictOptions } from '../../shared/use-dict-items';
import { formatDateTime } from '../../shared/format';

type Params = Omit<TUserAnnouncementQuery, '_t'>;
type Search = Pick<Params, 'titile' | 'msgCategory' | 'readFlag' | 'priority'>;

const DEFAULT_PARAMS: Params = { pageNo: 1, pageSize: 10, order: 'desc' };

/** /isps/userAnnouncement (spec section 2): the caller's announcements, filters, read state. */
export default function UserAnnouncementPage() {
  const { t, i18n } = useTranslation();
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
  const { message } = App.useApp();
  const page = useListPage<Params, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      titile: values.titile?.trim() || undefined,
      msgCategory: values.msgCategory,
      readFlag: values.readFlag,
      priority: values.priority,
    }),
    reset: 'defaults',
  });
  const { params } = page;
  const [detail, setDetail] = useState<TUserAnnouncement | null>(null);
  const reload = useReloadMyAnnouncements();
  const list = useQuery({
    // System messages are rendered in the request's language: a switch loads them again.
    queryKey: [...MY_ANNOUNCEMENTS_KEY, 'page', params, i18n.language],
    queryFn: () =>
      http.get<TUserAnnouncementPage>('/sys/sysAnnouncementSend/getMyAnnouncementSend', params),
    placeholderData: keepPreviousData,
  });

  const readAll = async () => {
    try {
      await announcementApi.readAll();
      void message.success(t('announcement.readAll'));
      await reload();
    } catch {
      // Reported by the HTTP client.
    }
  };

  const columns: ProColumns<TUserAnnouncement>[] = [
    {
      title: t('announcement.title'),
      dataIndex: 'titile',
      width: 300,
      ellipsis: true,
      render: (_, row) => (
        <a onClick={() => setDetail(row)} data-testid="my-announcement-title">
          {row.titile}
        </a>
      ),
    },
    {
      title: t('announcement.priority'),
      dataIndex: 'priority',
      width: 110,
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
      title: t('announcement.sender'),
      dataIndex: 'sender',
      width: 110,
      hideInSearch: true,
      render: (_, row) => row.sender ?? t('notice.systemSender'),
    },
    {
      title: t('announcement.sendTime'),
      dataIndex: 'sendTime',
      width: 170,
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.sendTime),
    },
    {
      title: t('announcement.readFlag'),
      dataIndex: 'readFlag',
      width: 100,
      valueEnum: {
        '0': { text: t('announcement.readFlags.0') },
        '1': { text: t('announcement.readFlags.1') },
      },
      render: (_, row) => (
        <Badge
          status={row.readFlag === '1' ? 'default' : 'processing'}
          text={t(`announcement.readFlags.${row.readFlag}`)}
          data-testid="my-announcement-read"
        />
      ),
    },
  ];

  return (
    <Card styles={{ body: { paddingTop: 8 } }} data-testid="my-announcement-page">
      <ProTable<TUserAnnouncement, Search>
        rowKey="sendId"
        {...page.tableProps(list)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        cardProps={{ bodyStyle: { padding: 0 } }}
        scroll={{ x: 910 }}
        toolBarRender={() => [
          <Button
            key="readAll"
            onClick={() => void readAll()}
            data-testid="my-announcement-read-all"
          >
            {t('announcement.readAll')}
          </Button>,
        ]}
        data-testid="my-announcement-table"
      />
      <AnnouncementDetailModal announcement={detail} onClose={() => setDetail(null)} />
    </Card>
  );
}
