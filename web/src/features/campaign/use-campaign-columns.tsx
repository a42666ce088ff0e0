import type { ProColumns } from '@ant-design/pro-components';
import type { TCampaign } from '@blrms/contracts';
import { CAMPAIGN_KINDS, CAMPAIGN_STATES } from '@blrms/contracts';
import { Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatDateTime, formatNumber } from '../../shared/format';
import { CampaignProgressBar } from './CampaignProgressBar';
import { CampaignStateTag } from './CampaignTags';

/** The campaign table's columns: the name links to the campaign, its state and live progress. */
export function useCampaignColumns(): ProColumns<TCampaign>[] {
  const { t } = useTranslation();
  return [
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
}
