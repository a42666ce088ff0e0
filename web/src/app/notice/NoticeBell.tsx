import { BellOutlined } from '@ant-design/icons';
import { NOTICE_POLL_MS, type TUserAnnouncement } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, List, Popover, Spin, Tabs } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRealtimeMessage, useRealtimeStatus, useResync } from '../../realtime/use-realtime';
import { AnnouncementDetailModal } from '../../shared/announcement/AnnouncementDetailModal';
import {
  MY_ANNOUNCEMENTS_KEY,
  announcementApi,
  useReloadMyAnnouncements,
} from '../../shared/announcement/announcement-api';
import { PriorityTag } from '../../shared/announcement/PriorityTag';
import { formatDateTime } from '../../shared/format';
import { USER_ANNOUNCEMENT_PATH } from '../../shared/paths';
import './notice-bell.css';

/** Spec section 2: the popover is 300 px wide. */
const POPOVER_WIDTH = 300;

/**
 * The header's notification bell (spec sections 2, 4, 8, 9): unread announcements and system
 * messages with their counts. A `topic` or `user` websocket message reloads them, and so does a
 * reconnect or a `resync` (messages may have been missed); only while the socket is down does the
 * bell poll every 6 s, and a failed load stops the polling.
 */
export function NoticeBell() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const reload = useReloadMyAnnouncements();
  const socket = useRealtimeStatus();
  const [open, setOpen] = useState(false);
  const [detail, setDetail] = useState<TUserAnnouncement | null>(null);

  const lists = useQuery({
    // System messages are rendered in the request's language: a switch loads them again.
    queryKey: [...MY_ANNOUNCEMENTS_KEY, 'bell', i18n.language],
    queryFn: announcementApi.listByUser,
    refetchInterval: (query) =>
      socket === 'down' && query.state.status !== 'error' ? NOTICE_POLL_MS : false,
  });
  useRealtimeMessage(['topic', 'user'], () => void reload());
  // Announcements published while messages could not arrive (a reconnect, a server-side gap).
  useResync(() => void reload());

  const data = lists.data;
  const total = (data?.anntMsgTotal ?? 0) + (data?.sysMsgTotal ?? 0);

  const show = (item: TUserAnnouncement) => {
    setOpen(false);
    setDetail(item);
  };

  const entries = (items: TUserAnnouncement[] | undefined, testId: string) => (
    <List
      size="small"
      dataSource={items ?? []}
      locale={{ emptyText: t('notice.empty') }}
      data-testid={testId}
      renderItem={(item) => (
        <List.Item
          className="notice-bell__item"
          onClick={() => show(item)}
          extra={<PriorityTag priority={item.priority} />}
          data-testid="notice-item"
        >
          <List.Item.Meta
            title={<span className="notice-bell__title">{item.titile}</span>}
            description={formatDateTime(item.sendTime)}
          />
        </List.Item>
      )}
    />
  );

  const content = (
    <Spin spinning={lists.isFetching && !data}>
      <Tabs
        size="small"
        centered
        items={[
          {
            key: 'annt',
            label: (
              <span data-testid="notice-tab-annt">
                {t('notice.announcements', { count: data?.anntMsgTotal ?? 0 })}
              </span>
            ),
            children: entries(data?.anntMsgList, 'notice-list-annt'),
          },
          {
            key: 'sys',
            label: (
              <span data-testid="notice-tab-sys">
                {t('notice.systemMessages', { count: data?.sysMsgTotal ?? 0 })}
              </span>
            ),
            children: entries(data?.sysMsgList, 'notice-list-sys'),
          },
        ]}
      />
      <Button
        block
        type="link"
        onClick={() => {
          setOpen(false);
          navigate(USER_ANNOUNCEMENT_PATH);
        }}
        data-testid="notice-more"
      >
        {t('notice.viewMore')}
      </Button>
    </Spin>
  );

  return (
    <>
      <Popover
        trigger="click"
        // Centred under the bell: on a 390 px phone the bell sits mid-header and a right-aligned
        // 300 px popover would run off the left edge.
        placement="bottom"
        open={open}
        onOpenChange={setOpen}
        content={content}
        styles={{
          body: { width: POPOVER_WIDTH, boxSizing: 'border-box', padding: '4px 12px 8px' },
        }}
      >
        <button
          type="button"
          className="shell-action"
          aria-label={t('notice.bell')}
          data-testid="notice-bell"
        >
          <Badge count={total} size="small" overflowCount={99} data-testid="notice-badge">
            <BellOutlined className="notice-bell__icon" />
          </Badge>
        </button>
      </Popover>
      <AnnouncementDetailModal announcement={detail} onClose={() => setDetail(null)} />
    </>
  );
}
