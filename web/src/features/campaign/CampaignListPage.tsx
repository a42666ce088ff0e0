import { PlusOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TCampaign, TCampaignKind, TCampaignState } from '@blrms/contracts';
import { CAMPAIGN_KINDS, CAMPAIGN_STATES } from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useLiveReload } from '../../shared/device/use-device-status';
import { formatDateTime, formatNumber, formatPageRange } from '../../shared/format';
import { Authorized } from '../../shared/permission/Authorized';
import { CampaignFormModal } from './CampaignFormModal';
import { CampaignProgressBar } from './CampaignProgressBar';
import { CampaignStateTag } from './CampaignTags';
import { useCampaignProgress } from './use-campaign-live';
import type { CampaignPage, CampaignParams } from './use-campaigns';
import { applyProgress, campaignListKey, useCampaigns } from './use-campaigns';

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
  const [params, setParams] = useState<CampaignParams>(DEFAULT_PARAMS);
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

  const columns: ProColumns<TCampaign>[] = [
    {
      title: t('campaign.name'),
      dataIndex: 'name',
      width: 180,
      ellipsis: true,
      fieldProps: { placeholder: t('campaign.namePlaceholder') },
      render: (_, row) => (
        <Link to={`/device/campaign/${row.id}`} data-testid={`campaign-link-${row.id}`}>
          {row.name}
        </Link>
      ),
    },
    {
      title: t('campaign.state'),
      dataIndex: 'state',
      width: 170,
      valueType: 'select',
      fieldProps: {
        options: CAMPAIGN_STATES.map((state) => ({
          value: state,
          label: t(`campaign.states.${state}`),
        })),
      },
      render: (_, row) =>
        row.pausedReason ? (
          <Tooltip title={t(`campaign.pausedReasons.${row.pausedReason}`)}>
            <span>
              <CampaignStateTag state={row.state} gate={row.gate} />
            </span>
          </Tooltip>
        ) : (
          <CampaignStateTag state={row.state} gate={row.gate} />
        ),
    },
    {
      title: t('campaign.progress'),
      key: 'progress',
      width: 250,
      hideInSearch: true,
      render: (_, row) => <CampaignProgressBar progress={row} legend />,
    },
    {
      title: t('campaign.change'),
      key: 'change',
      width: 170,
      hideInSearch: true,
      render: (_, row) =>
        row.kind === 'ota' ? (
          <span>
            {row.series} <Typography.Text code>{row.firmwareVersion ?? '-'}</Typography.Text>
          </span>
        ) : (
          // What a configuration changes: its series and the settings the patch touches.
          <Typography.Text ellipsis={{ tooltip: true }} style={{ maxWidth: 160 }}>
            {row.series} {Object.keys(row.configPatch ?? {}).join(', ')}
          </Typography.Text>
        ),
    },
    {
      title: t('campaign.kind'),
      dataIndex: 'kind',
      width: 140,
      valueType: 'select',
      fieldProps: {
        options: CAMPAIGN_KINDS.map((kind) => ({
          value: kind,
          label: t(`campaign.kinds.${kind}`),
        })),
      },
      render: (_, row) => t(`campaign.kinds.${row.kind}`),
    },
    {
      title: t('campaign.total'),
      dataIndex: 'total',
      width: 90,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => formatNumber(row.total),
    },
    { title: t('campaign.createBy'), dataIndex: 'createBy', width: 110, hideInSearch: true },
    {
      title: t('campaign.createTime'),
      dataIndex: 'createTime',
      width: 170,
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.createTime),
    },
  ];

  const search = (values: CampaignSearch) =>
    setParams((p) => ({
      ...p,
      pageNo: 1,
      name: values.name?.trim() || undefined,
      kind: values.kind,
      state: values.state,
    }));

  return (
    <>
      <ProTable<TCampaign, CampaignSearch>
        rowKey="id"
        headerTitle={t('campaign.title')}
        columns={columns}
        dataSource={campaigns.data?.records ?? []}
        loading={campaigns.isPlaceholderData || (campaigns.isFetching && !liveReload.reloading)}
        search={{ labelWidth: 'auto' }}
        onSubmit={search}
        onReset={() => search({})}
        options={{ reload: () => void campaigns.refetch(), density: true, setting: true }}
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
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: campaigns.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: formatPageRange,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
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
