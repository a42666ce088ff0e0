import type { TCampaignProgress } from '@blrms/contracts';
import { Space, theme, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../shared/format';
import type { ProgressPart } from './campaign-progress';
import { finishedPercent, progressSegments } from './campaign-progress';

type Progress = Pick<TCampaignProgress, 'total' | 'counts'>;

/** The parts' colours; queued devices are the bar's empty track, and a grey dot in the legend. */
function usePartColors(): Record<ProgressPart | 'queuedDot', string> {
  const { token } = theme.useToken();
  return {
    updated: token.colorSuccess,
    failed: token.colorError,
    canceled: token.colorTextQuaternary,
    active: token.colorPrimary,
    queued: token.colorFillSecondary,
    queuedDot: token.colorBorder,
  };
}

/**
 * A campaign's progress as one bar: updated, failed, canceled and in-progress devices side by
 * side over the queued rest, with the finished share as a number and, with `legend`, the count of
 * each part beneath.
 */
export function CampaignProgressBar({
  progress,
  legend = false,
  testId = 'campaign-progress',
}: {
  progress: Progress;
  legend?: boolean;
  testId?: string;
}) {
  const { t } = useTranslation();
  const colors = usePartColors();
  const segments = progressSegments(progress);
  const percent = finishedPercent(progress);
  return (
    <div data-testid={testId} style={{ minWidth: 160 }}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
        <div
          role="progressbar"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-label={t('campaign.progress')}
          style={{
            flex: 1,
            display: 'flex',
            height: 8,
            borderRadius: 4,
            overflow: 'hidden',
            background: colors.queued,
          }}
        >
          {segments
            .filter((s) => s.part !== 'queued')
            .map((s) => (
              <div
                key={s.part}
                style={{
                  width: `${s.percent}%`,
                  background: colors[s.part],
                  transition: 'width 0.3s',
                }}
              />
            ))}
        </div>
        <Typography.Text
          style={{ minWidth: 40, textAlign: 'right' }}
          data-testid="campaign-percent"
        >
          {percent}%
        </Typography.Text>
      </div>
      {legend && (
        <Space size={[10, 0]} wrap style={{ fontSize: 12 }}>
          {segments.map((s) => (
            <span key={s.part} data-testid={`campaign-part-${s.part}`}>
              <span
                style={{
                  display: 'inline-block',
                  width: 6,
                  height: 6,
                  borderRadius: 3,
                  marginRight: 4,
                  verticalAlign: 'middle',
                  background: s.part === 'queued' ? colors.queuedDot : colors[s.part],
                }}
              />
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {t(`campaign.parts.${s.part}`)} {formatNumber(s.count)}
              </Typography.Text>
            </span>
          ))}
        </Space>
      )}
    </div>
  );
}
