import type { TAnnouncementPriority } from '@blrms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Spec section 3: L blue 一般消息, M orange 重要消息, H red 紧急消息. */
const COLORS: Record<TAnnouncementPriority, string> = { L: 'blue', M: 'orange', H: 'red' };

export function PriorityTag({ priority }: { priority: TAnnouncementPriority }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[priority]} data-testid={`priority-${priority}`}>
      {t(`notice.priority.${priority}`)}
    </Tag>
  );
}
