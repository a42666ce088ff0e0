import type { TAnnouncement } from '@blrms/contracts';
import { Descriptions, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PriorityTag } from '../../shared/announcement/PriorityTag';
import '../../shared/announcement/announcement.css';
import { formatDateTime } from '../../shared/format';

/** The administrator's view of one announcement; the content is the server-sanitized HTML. */
export function AnnouncementPreview({
  announcement,
  onClose,
}: {
  announcement: TAnnouncement | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={announcement !== null}
      title={announcement?.titile}
      width={800}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      {announcement && (
        <>
          <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
            <Descriptions.Item label={t('announcement.priority')}>
              <PriorityTag priority={announcement.priority} />
            </Descriptions.Item>
            <Descriptions.Item label={t('announcement.status')}>
              {t(`announcement.statuses.${announcement.sendStatus}`)}
            </Descriptions.Item>
            <Descriptions.Item label={t('announcement.sender')}>
              {announcement.sender ?? '-'}
            </Descriptions.Item>
            <Descriptions.Item label={t('announcement.sendTime')}>
              {formatDateTime(announcement.sendTime) || '-'}
            </Descriptions.Item>
          </Descriptions>
          <Typography>
            <div
              className="announcement-content"
              dangerouslySetInnerHTML={{ __html: announcement.msgContent }}
            />
          </Typography>
        </>
      )}
    </Modal>
  );
}
