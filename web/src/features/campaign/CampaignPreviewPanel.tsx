import type { TCampaignPreview } from '@blrms/contracts';
import type { UseQueryResult } from '@tanstack/react-query';
import { Alert, Col, Row, Spin, Statistic, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../shared/format';

/**
 * The server's count of the devices the target names (all, online, excluded), shown before
 * anything starts; `pending` while the target is not complete yet.
 */
export function CampaignPreviewPanel({
  pending,
  query,
}: {
  pending: boolean;
  query: UseQueryResult<TCampaignPreview>;
}) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  if (pending) {
    return <Typography.Text type="secondary">{t('campaign.previewPending')}</Typography.Text>;
  }
  if (query.isError) {
    return (
      <Alert
        type="error"
        showIcon
        message={query.error.message || t('http.unknown')}
        data-testid="campaign-preview-error"
      />
    );
  }
  if (!query.data) return <Spin size="small" />;
  const { total, online, excluded } = query.data;
  return (
    <Spin spinning={query.isFetching} size="small">
      <Row gutter={16}>
        <Col span={8}>
          <Statistic
            title={t('campaign.previewTotal')}
            value={formatNumber(total)}
            data-testid="campaign-preview-total"
          />
        </Col>
        <Col span={8}>
          <Statistic
            title={t('campaign.previewOnline')}
            value={formatNumber(online)}
            data-testid="campaign-preview-online"
          />
        </Col>
        <Col span={8}>
          <Statistic
            title={
              <span title={t('campaign.previewExcludedHint')}>{t('campaign.previewExcluded')}</span>
            }
            value={formatNumber(excluded)}
            valueStyle={excluded > 0 ? { color: token.colorWarning } : undefined}
            data-testid="campaign-preview-excluded"
          />
        </Col>
      </Row>
      {total === 0 && <Typography.Text type="warning">{t('campaign.previewNone')}</Typography.Text>}
    </Spin>
  );
}
