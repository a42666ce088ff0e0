import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TCampaign, TCampaignDevice, TCampaignDeviceState } from '@blrms/contracts';
import { Progress, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatNumber, formatPageRange } from '../../shared/format';
import { deviceErrorText, statesOfKind } from './campaign-progress';
import { CampaignDeviceStateTag } from './CampaignTags';
import type { CampaignDevicePage, CampaignDeviceParams } from './use-campaigns';

type DeviceSearch = { sn?: string; state?: TCampaignDeviceState };

/** States in which the download percentage says something. */
const DOWNLOAD_STATES: readonly TCampaignDeviceState[] = [
  'downloading',
  'downloaded',
  'verified',
  'updating',
];

/**
 * The devices of a campaign with their state, download progress, error and attempts, filtered
 * by state and SN. The page loads them (it reloads them as progress arrives); `loading` is off
 * for those background reloads, so the rows stay on screen.
 */
export function CampaignDeviceTable({
  campaign,
  params,
  onParams,
  page,
  loading,
  onReload,
}: {
  campaign: TCampaign;
  params: CampaignDeviceParams;
  onParams: (update: (p: CampaignDeviceParams) => CampaignDeviceParams) => void;
  page: CampaignDevicePage | undefined;
  loading: boolean;
  onReload: () => void;
}) {
  const { t } = useTranslation();

  const columns: ProColumns<TCampaignDevice>[] = [
    {
      title: t('campaign.sn'),
      dataIndex: 'sn',
      width: 170,
      ellipsis: true,
      render: (_, row) => (
        <Link to={`/device/detail/${row.deviceId}`} data-testid={`campaign-device-${row.sn}`}>
          {row.sn}
        </Link>
      ),
    },
    {
      title: t('campaign.state'),
      dataIndex: 'state',
      width: 110,
      valueType: 'select',
      fieldProps: {
        options: statesOfKind(campaign.kind).map((state) => ({
          value: state,
          label: t(`campaign.deviceStates.${state}`),
        })),
      },
      render: (_, row) => <CampaignDeviceStateTag state={row.state} />,
    },
    ...(campaign.kind === 'ota'
      ? [
          {
            title: t('campaign.download'),
            dataIndex: 'progress',
            width: 140,
            hideInSearch: true,
            render: (_, row) =>
              row.progress !== null &&
              (DOWNLOAD_STATES.includes(row.state) || row.state === 'failed') ? (
                <Progress
                  percent={row.progress}
                  size="small"
                  status={row.state === 'failed' ? 'exception' : undefined}
                  data-testid="campaign-device-download"
                />
              ) : (
                '-'
              ),
          } satisfies ProColumns<TCampaignDevice>,
        ]
      : []),
    {
      title: t('campaign.error'),
      dataIndex: 'error',
      width: 220,
      hideInSearch: true,
      render: (_, row) => {
        if (!row.error) return '-';
        const text = deviceErrorText(t, row.error);
        return (
          <Typography.Text type="danger" ellipsis={{ tooltip: text }}>
            {text}
          </Typography.Text>
        );
      },
    },
    {
      title: t('campaign.wave'),
      dataIndex: 'wave',
      width: 90,
      hideInSearch: true,
      render: (_, row) => t('campaign.waveNumber', { n: row.wave + 1 }),
    },
    {
      title: t('campaign.deviceName'),
      dataIndex: 'name',
      width: 150,
      ellipsis: true,
      hideInSearch: true,
    },
    {
      title: t('campaign.fromVersion'),
      dataIndex: 'fromVersion',
      width: 110,
      hideInSearch: true,
      render: (_, row) => row.fromVersion ?? '-',
    },
    {
      title: t('campaign.attempts'),
      dataIndex: 'attempts',
      width: 80,
      align: 'right',
      hideInSearch: true,
      render: (_, row) => formatNumber(row.attempts),
    },
    {
      title: t('campaign.updateTime'),
      dataIndex: 'updateTime',
      width: 170,
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.updateTime),
    },
  ];

  const search = (values: DeviceSearch) =>
    onParams((p) => ({
      ...p,
      pageNo: 1,
      sn: values.sn?.trim() || undefined,
      state: values.state,
    }));

  return (
    <ProTable<TCampaignDevice, DeviceSearch>
      rowKey="deviceId"
      headerTitle={t('campaign.deviceTable')}
      columns={columns}
      dataSource={page?.records ?? []}
      loading={loading}
      search={{ labelWidth: 'auto' }}
      onSubmit={search}
      onReset={() => search({})}
      options={{ reload: onReload, density: true, setting: true }}
      scroll={{ x: 1100 }}
      pagination={{
        current: params.pageNo,
        pageSize: params.pageSize,
        total: page?.total ?? 0,
        showSizeChanger: true,
        showTotal: formatPageRange,
        onChange: (pageNo, pageSize) => onParams((p) => ({ ...p, pageNo, pageSize })),
      }}
      data-testid="campaign-device-table"
    />
  );
}
