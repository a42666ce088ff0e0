import { ArrowLeftOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Result, Skeleton, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { useLiveReload } from '../../shared/device/use-device-status';
import { usePageTitle } from '../../shared/page-title';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { CampaignApproveButton, CampaignControls } from './CampaignControls';
import { CampaignDeviceTable } from './CampaignDeviceTable';
import { CampaignGateNotice } from './CampaignGateNotice';
import { CampaignProgressCard } from './CampaignProgressCard';
import { CampaignSettings } from './CampaignSettings';
import { CampaignStateTag } from './CampaignTags';
import { useCampaignProgress } from './use-campaign-live';
import type { CampaignDeviceParams } from './use-campaigns';
import { applyProgress, campaignKey, useCampaign, useCampaignDevices } from './use-campaigns';

const LIST_PATH = '/device/campaign';

/**
 * One campaign (/device/campaign/:id): its state and the controls (pause, resume, cancel, retry
 * the failed devices), its settings, its progress per device state and its devices. Progress
 * arrives over the `campaigns` channel: it is applied to the page at once, and the device table
 * reloads at most once a second while it comes.
 */
export default function CampaignDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const client = useQueryClient();
  const campaign = useCampaign(id);
  const [deviceParams, setDeviceParams] = useState<CampaignDeviceParams>({
    id,
    pageNo: 1,
    pageSize: 10,
    order: 'asc',
  });
  const devices = useCampaignDevices(deviceParams);
  const devicesReload = useLiveReload(() => devices.refetch());
  const canControl = useHasAction('campaign:control');
  const narrow = useNarrowScreen();
  usePageTitle(campaign.data?.name);
  useCampaignProgress(
    (progress) => {
      // A load under way may have read the campaign before this change and would undo it.
      const loading = client.isFetching({ queryKey: campaignKey(id) }) > 0;
      applyProgress(client, progress);
      if (progress.id !== id) return;
      if (loading) void campaign.refetch();
      devicesReload.request();
    },
    () => {
      void campaign.refetch();
      devicesReload.request();
    },
  );

  if (campaign.isPending) {
    return (
      <Card>
        <Skeleton active paragraph={{ rows: 8 }} />
      </Card>
    );
  }
  if (campaign.isError || !campaign.data) {
    const notFound =
      campaign.error instanceof ApiError && [400, 404].includes(campaign.error.status);
    return (
      <Card>
        <Result
          status={notFound ? '404' : 'error'}
          title={notFound ? t('campaign.notFound') : t('campaign.loadFailed')}
          extra={
            <Link to={LIST_PATH}>
              <Button type="primary">{t('campaign.backToList')}</Button>
            </Link>
          }
          data-testid="campaign-detail-missing"
        />
      </Card>
    );
  }

  const c = campaign.data;
  const awaitingApproval = c.state === 'running' && c.gate === 'approval';

  const approve = canControl && awaitingApproval && <CampaignApproveButton campaign={c} />;
  const controls = canControl && <CampaignControls campaign={c} />;

  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }} data-testid="campaign-detail">
      <Card
        title={
          <Space wrap>
            <Link to={LIST_PATH} aria-label={t('campaign.backToList')}>
              <ArrowLeftOutlined />
            </Link>
            <span data-testid="campaign-detail-name">{c.name}</span>
            <CampaignStateTag state={c.state} gate={c.gate} />
          </Space>
        }
        // On a phone the buttons would squeeze the title out of the header: they go below it.
        extra={narrow ? undefined : controls}
      >
        {narrow && controls && <div style={{ marginBottom: 16 }}>{controls}</div>}
        <CampaignGateNotice campaign={c} action={approve || undefined} />
        <CampaignSettings campaign={c} />
      </Card>

      <CampaignProgressCard campaign={c} />

      <CampaignDeviceTable
        campaign={c}
        params={deviceParams}
        onParams={setDeviceParams}
        page={devices.data}
        loading={devices.isPlaceholderData || (devices.isFetching && !devicesReload.reloading)}
        onReload={() => void devices.refetch()}
      />
    </Space>
  );
}
