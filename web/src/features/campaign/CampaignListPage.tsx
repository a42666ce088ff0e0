import { PlusOutlined } from '@ant-design/icons';
import { ProTable } from '@ant-design/pro-components';
import type { TCampaign, TCampaignKind, TCampaignState } from '@blrms/contracts';
import { ZCampaignQuery } from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLiveReload } from '../../shared/device/use-device-status';
import { useListPage } from '../../shared/entity/use-list-page';
import { Authorized } from '../../shared/permission/Authorized';
import { CampaignFormModal } from './CampaignFormModal';
import { useCampaignProgress } from './use-campaign-live';
import type { CampaignPage, CampaignParams } from './use-campaigns';
import { applyProgress, campaignListKey, useCampaigns } from './use-campaigns';
import { useCampaignColumns } from './use-campaign-columns';

type CampaignSearch = { name?: string; kind?: TCampaignKind; state?: TCampaignState };

const DEFAULT_PARAMS: CampaignParams = { pageNo: 1, pageSize: 10, order: 'desc' };

/**
 * Campaigns (issue 5): firmware upgrades and bulk configurations rolled out in waves, newest
 * first, with their state and progress kept live over the `campaigns` channel. A message patches
 * its row in place; one about a campaign the page does not show (a new one) reloads the page, at
 * most once a second.
 */
export default function CampaignListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const list = useListPage<CampaignParams, CampaignSearch>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      name: values.name?.trim() || undefined,
      kind: values.kind,
      state: values.state,
    }),
    url: ZCampaignQuery,
  });
  const { params } = list;
  const [adding, setAdding] = useState(false);
  const campaigns = useCampaigns(params);
  const liveReload = useLiveReload(() => campaigns.refetch());
  useCampaignProgress((progress) => {
    const key = campaignListKey(params);
    // A load under way may have read the rows before this change and would undo the patch.
    const loading = client.isFetching({ queryKey: key }) > 0;
    const unknown = !client
      .getQueryData<CampaignPage>(key)
      ?.records.some((campaign) => campaign.id === progress.id);
    applyProgress(client, progress);
    const leavesFilter = params.state !== undefined && progress.state !== params.state;
    if (loading || unknown || leavesFilter) liveReload.request();
  }, liveReload.request);

  const columns = useCampaignColumns();

  return (
    <>
      <ProTable<TCampaign, CampaignSearch>
        rowKey="id"
        headerTitle={t('campaign.title')}
        {...list.tableProps(campaigns)}
        columns={columns}
        loading={campaigns.isPlaceholderData || (campaigns.isFetching && !liveReload.reloading)}
        search={{ labelWidth: 'auto' }}
        toolBarRender={() => [
          <Authorized action="campaign:add" key="add">
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setAdding(true)}
              data-testid="campaign-add"
            >
              {t('campaign.add')}
            </Button>
          </Authorized>,
        ]}
        scroll={{ x: 1150 }}
        data-testid="campaign-table"
      />
      <CampaignFormModal
        open={adding}
        onClose={() => setAdding(false)}
        onCreated={(campaign) => {
          setAdding(false);
          void navigate(`/device/campaign/${campaign.id}`);
        }}
      />
    </>
  );
}
