import type { TEventLevel } from '@blrms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

const COLORS: Record<TEventLevel, string> = {
  info: 'blue',
  warn: 'orange',
  alarm: 'red',
  recovery: 'green',
};

/** The level of a device event as a coloured tag. */
export function EventLevelTag({ level }: { level: TEventLevel }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLORS[level]} data-testid="event-level">
      {t(`device.monitor.level.${level}`)}
    </Tag>
  );
}
