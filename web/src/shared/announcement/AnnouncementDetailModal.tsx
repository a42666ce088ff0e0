import type { TUserAnnouncement } from '@blrms/contracts';
import { Button, Descriptions, Modal, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { formatDateTime } from '../format';
import { announcementApi, useReloadMyAnnouncements } from './announcement-api';
import { PriorityTag } from './PriorityTag';
import './announcement.css';

type Props = {
  /** The entry as it was listed: its read flag decides the 去处理 button. */
  announcement: TUserAnnouncement | null;
  onClose: () => void;
};

/**
 * Spec section 2: title, sender, send time and content, with 去处理 when the announcement opens a
 * URL and was unread. Opening it marks it read and reloads the lists (spec section 4). The
 * content is HTML the server sanitized with an allowlist; nothing in it runs.
 */
export function AnnouncementDetailModal({ announcement, onClose }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const reload = useReloadMyAnnouncements();
  const id = announcement?.id;
  const unread = announcement?.readFlag === '0';

  useEffect(() => {
    if (!id || !unread) return;
    void announcementApi.markRead(id).then(reload, () => undefined);
  }, [id, unread, reload]);

  const handle = () => {
    const page = announcement?.openPage;
    if (!page) return;
    onClose();
    if (page.startsWith('/')) navigate(page);
    else window.open(page, '_blank', 'noopener,noreferrer');
  };

  const showHandle = announcement?.openType === 'url' && unread && !!announcement.openPage;

  return (
    <Modal
      open={announcement !== null}
      title={announcement?.titile}
      width={800}
      onCancel={onClose}
      destroyOnHidden
      footer={[
        showHandle && (
          <Button key="handle" type="primary" onClick={handle} data-testid="announcement-handle">
            {t('notice.handle')}
          </Button>
        ),
        <Button key="close" onClick={onClose}>
          {t('notice.close')}
        </Button>,
      ]}
      data-testid="announcement-detail"
    >
      {announcement && (
        <>
          <Descriptions size="small" column={{ xs: 1, sm: 3 }}>
            <Descriptions.Item label={t('notice.sender')}>
              {announcement.sender ?? t('notice.systemSender')}
            </Descriptions.Item>
            <Descriptions.Item label={t('notice.sendTime')}>
              {formatDateTime(announcement.sendTime)}
            </Descriptions.Item>
            <Descriptions.Item label={t('notice.priorityLabel')}>
              <PriorityTag priority={announcement.priority} />
            </Descriptions.Item>
          </Descriptions>
          <Typography>
            <div
              className="announcement-content"
              data-testid="announcement-content"
              dangerouslySetInnerHTML={{ __html: announcement.msgContent }}
            />
          </Typography>
        </>
      )}
    </Modal>
  );
}
