import type { TCampaign, TCampaignDeviceState } from '@blrms/contracts';
import { Card, Col, Progress, Row, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../shared/format';
import { statePercent, statesOfKind } from './campaign-progress';
import { CampaignProgressBar } from './CampaignProgressBar';

/** The overall progress of a campaign and a bar per device state (and waiting offline). */
export function CampaignProgressCard({ campaign: c }: { campaign: TCampaign }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();

  const stateColor = (state: TCampaignDeviceState): string => {
    switch (state) {
      case 'updated':
        return token.colorSuccess;
      case 'failed':
        return token.colorError;
      case 'canceled':
        return token.colorTextQuaternary;
      case 'queued':
        return token.colorBorder;
      default:
        return token.colorPrimary;
    }
  };

  const stateBar = (label: string, count: number, testId: string, color: string) => (
    <Col xs={12} xl={8} key={testId}>
      <div data-testid={testId}>
        <div style={{ display: 'flex', justifyContent: 'space-between' }}>
          <Typography.Text type="secondary">{label}</Typography.Text>
          <Typography.Text strong data-testid="count">
            {formatNumber(count)}
          </Typography.Text>
        </div>
        <Progress
          percent={statePercent(count, c.total)}
          showInfo={false}
          strokeColor={color}
          size="small"
        />
      </div>
    </Col>
  );

  return (
    <Card title={t('campaign.progress')} data-testid="campaign-progress-card">
      <CampaignProgressBar progress={c} testId="campaign-overall" />
      <Typography.Text type="secondary" style={{ display: 'block', margin: '4px 0 16px' }}>
        {t('campaign.progressText', {
          done: formatNumber(c.counts.updated + c.counts.failed + c.counts.canceled),
          total: formatNumber(c.total),
        })}
      </Typography.Text>
      <Row gutter={[24, 12]}>
        {statesOfKind(c.kind).map((state) =>
          stateBar(
            t(`campaign.deviceStates.${state}`),
            c.counts[state],
            `campaign-count-${state}`,
            stateColor(state),
          ),
        )}
        {stateBar(
          t('campaign.waitingOffline'),
          c.waitingOffline,
          'campaign-count-waiting-offline',
          token.colorWarning,
        )}
      </Row>
    </Card>
  );
}
