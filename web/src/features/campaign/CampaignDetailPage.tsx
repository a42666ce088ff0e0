import {
  ArrowLeftOutlined,
  CaretRightOutlined,
  CheckOutlined,
  PauseOutlined,
  RedoOutlined,
  StopOutlined,
} from '@ant-design/icons';
import type { TCampaign, TCampaignDeviceState } from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import {
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Progress,
  Result,
  Row,
  Skeleton,
  Space,
  Tag,
  theme,
  Typography,
} from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { ApiError } from '../../api/errors';
import { useLiveReload } from '../../shared/device/use-device-status';
import { formatDateTime, formatNumber } from '../../shared/format';
import { usePageTitle } from '../../shared/page-title';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { formatWaves, formatWindow, spansMidnight } from './campaign-form';
import { statePercent, statesOfKind } from './campaign-progress';
import { CampaignProgressBar } from './CampaignProgressBar';
import { CampaignDeviceTable } from './CampaignDeviceTable';
import { CampaignGateNotice } from './CampaignGateNotice';
import { CampaignStateTag } from './CampaignTags';
import { useCampaignProgress } from './use-campaign-live';
import type { CampaignAction, CampaignDeviceParams } from './use-campaigns';
import {
  applyProgress,
  campaignKey,
  useCampaign,
  useCampaignAction,
  useCampaignDevices,
  useGroupChoices,
} from './use-campaigns';

/** Spec section 9: a detail list has at most 4 columns, 3 by default; one on a phone. */
const DETAIL_COLUMNS = { xs: 1, sm: 2, md: 3, lg: 3, xl: 3, xxl: 4 };

const LIST_PATH = '/device/campaign';

/** What the target of a campaign named, in words: `12 selected devices · version ≥ 1.0`. */
function targetText(
  t: TFunction,
  target: Record<string, unknown>,
  groupName: (id: string) => string,
): string {
  const parts: string[] = [];
  if (Array.isArray(target.deviceIds))
    parts.push(t('campaign.targetDevices', { count: target.deviceIds.length }));
  if (typeof target.groupId === 'string')
    parts.push(t('campaign.targetGroup', { name: groupName(target.groupId) }));
  if (typeof target.series === 'string')
    parts.push(t('campaign.seriesTarget', { series: target.series }));
  if (typeof target.versionFrom === 'string')
    parts.push(t('campaign.versionAtLeast', { version: target.versionFrom }));
  if (typeof target.versionTo === 'string')
    parts.push(t('campaign.versionAtMost', { version: target.versionTo }));
  if (target.onlineOnly === true) parts.push(t('campaign.onlineOnly'));
  return parts.join(' · ');
}

/**
 * The waves as tags: done ones green, the one that crossed the failure threshold red, the current
 * one blue while the campaign runs.
 */
function WaveTags({ campaign }: { campaign: TCampaign }) {
  const finished = campaign.state === 'completed' || campaign.state === 'completed-with-failures';
  return (
    <Space size={4} wrap title={formatWaves(campaign.waves)} data-testid="campaign-waves">
      {campaign.waves.map((wave, index) => {
        const color =
          index === campaign.thresholdWave
            ? 'error'
            : finished || index < campaign.currentWave
              ? 'success'
              : index === campaign.currentWave && campaign.state !== 'canceled'
                ? 'processing'
                : 'default';
        return (
          <Tag key={index} color={color} style={{ marginInlineEnd: 0 }}>
            {wave}%
          </Tag>
        );
      })}
    </Space>
  );
}

/**
 * One campaign (/device/campaign/:id): its state and the controls (pause, resume, cancel, retry
 * the failed devices), its settings, its progress per device state and its devices. Progress
 * arrives over the `campaigns` channel: it is applied to the page at once, and the device table
 * reloads at most once a second while it comes.
 */
export default function CampaignDetailPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { message, modal } = App.useApp();
  const { token } = theme.useToken();
  const client = useQueryClient();
  const campaign = useCampaign(id);
  const groups = useGroupChoices(typeof campaign.data?.target.groupId === 'string');
  const [deviceParams, setDeviceParams] = useState<CampaignDeviceParams>({
    id,
    pageNo: 1,
    pageSize: 10,
    order: 'asc',
  });
  const devices = useCampaignDevices(deviceParams);
  const devicesReload = useLiveReload(() => devices.refetch());
  const run = useCampaignAction();
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
  const open = c.state === 'scheduled' || c.state === 'running' || c.state === 'paused';
  const awaitingApproval = c.state === 'running' && c.gate === 'approval';

  const confirm = (
    action: CampaignAction,
    texts: { title: string; content: string; done: string },
    danger = false,
  ) =>
    modal.confirm({
      title: texts.title,
      content: texts.content,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger },
      onOk: async () => {
        try {
          await run.mutateAsync({ action, id: c.id });
          void message.success(texts.done);
        } catch {
          // Reported by the HTTP client.
        }
      },
    });

  const approve = canControl && awaitingApproval && (
    <Button
      type="primary"
      size="small"
      icon={<CheckOutlined />}
      onClick={() =>
        confirm('approve', {
          title: t('campaign.approveTitle', { name: c.name, next: c.currentWave + 2 }),
          content: t('campaign.approveContent', { next: c.currentWave + 2 }),
          done: t('campaign.approved'),
        })
      }
      data-testid="campaign-approve"
    >
      {t('campaign.approve')}
    </Button>
  );

  const controls = canControl && (
    <Space wrap>
      {c.state === 'running' && (
        <Button
          icon={<PauseOutlined />}
          onClick={() =>
            confirm('pause', {
              title: t('campaign.pauseTitle', { name: c.name }),
              content: t('campaign.pauseContent'),
              done: t('campaign.paused'),
            })
          }
          data-testid="campaign-pause"
        >
          {t('campaign.pause')}
        </Button>
      )}
      {c.state === 'paused' && (
        <Button
          type="primary"
          icon={<CaretRightOutlined />}
          onClick={() =>
            confirm('resume', {
              title: t('campaign.resumeTitle', { name: c.name }),
              content:
                c.pausedReason === 'failure-threshold'
                  ? t('campaign.resumeThresholdContent', {
                      wave: (c.thresholdWave ?? c.currentWave) + 1,
                    })
                  : t('campaign.resumeContent'),
              done: t('campaign.resumed'),
            })
          }
          data-testid="campaign-resume"
        >
          {t('campaign.resume')}
        </Button>
      )}
      {c.counts.failed > 0 && c.state !== 'canceled' && (
        <Button
          icon={<RedoOutlined />}
          onClick={() =>
            confirm('retry', {
              title: t('campaign.retryTitle', { count: c.counts.failed }),
              content: t('campaign.retryContent'),
              done: t('campaign.retried'),
            })
          }
          data-testid="campaign-retry"
        >
          {t('campaign.retryFailed')}
        </Button>
      )}
      {open && (
        <Button
          danger
          icon={<StopOutlined />}
          onClick={() =>
            confirm(
              'cancel',
              {
                title: t('campaign.cancelTitle', { name: c.name }),
                content: t('campaign.cancelContent'),
                done: t('campaign.canceled'),
              },
              true,
            )
          }
          data-testid="campaign-cancel"
        >
          {t('campaign.cancel')}
        </Button>
      )}
    </Space>
  );

  const groupName = (groupId: string) =>
    groups.data?.find((g) => g.id === groupId)?.name ?? groupId;

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
        <Descriptions column={DETAIL_COLUMNS} size="small" data-testid="campaign-settings">
          <Descriptions.Item label={t('campaign.kind')}>
            {t(`campaign.kinds.${c.kind}`)}
          </Descriptions.Item>
          {c.kind === 'ota' ? (
            <Descriptions.Item label={t('campaign.firmware')}>
              <span data-testid="campaign-firmware">
                {c.series} <Typography.Text code>{c.firmwareVersion ?? '-'}</Typography.Text>
              </span>
            </Descriptions.Item>
          ) : (
            <Descriptions.Item label={t('campaign.series')}>{c.series ?? '-'}</Descriptions.Item>
          )}
          <Descriptions.Item label={t('campaign.target')}>
            {targetText(t, c.target, groupName) || '-'}
          </Descriptions.Item>
          <Descriptions.Item label={t('campaign.waves')}>
            <Space size={8} wrap>
              <WaveTags campaign={c} />
              {c.waves.length > 1 && open && (
                <Typography.Text type="secondary" data-testid="campaign-current-wave">
                  {t('campaign.currentWave', {
                    current: c.currentWave + 1,
                    count: c.waves.length,
                  })}
                </Typography.Text>
              )}
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('campaign.maxConcurrent')}>
            {formatNumber(c.maxConcurrent)}
          </Descriptions.Item>
          <Descriptions.Item label={t('campaign.failureThreshold')}>
            {c.failureThresholdPercent}%
          </Descriptions.Item>
          <Descriptions.Item label={t('campaign.soak')}>
            {c.soakMinutes > 0
              ? `${formatNumber(c.soakMinutes)} ${t('campaign.minutes')}`
              : t('campaign.soakNone')}
          </Descriptions.Item>
          <Descriptions.Item label={t('campaign.approveEachWave')}>
            {c.approveEachWave ? t('campaign.approvalEach') : t('campaign.approvalNone')}
          </Descriptions.Item>
          <Descriptions.Item label={t('campaign.waveDeadline')}>
            {c.waveDeadlineMinutes === null
              ? t('campaign.waveDeadlineNone')
              : t('campaign.waveDeadlineSetting', {
                  minutes: formatNumber(c.waveDeadlineMinutes),
                  outcome: t(`campaign.waveDeadlineOutcomes.${c.onWaveDeadline}`),
                })}
          </Descriptions.Item>
          <Descriptions.Item label={t('campaign.startAt')}>
            {c.startAt ? formatDateTime(c.startAt) : t('campaign.startNow')}
          </Descriptions.Item>
          <Descriptions.Item label={t('campaign.window')}>
            {c.window
              ? `${formatWindow(c.window)}${spansMidnight(c.window) ? ` · ${t('campaign.overMidnight')}` : ''}`
              : t('campaign.noWindow')}
          </Descriptions.Item>
          <Descriptions.Item label={t('campaign.jitter')}>
            {c.jitterSec > 0
              ? `${formatNumber(c.jitterSec)} ${t('campaign.seconds')}`
              : t('campaign.noJitter')}
          </Descriptions.Item>
          {c.state === 'paused' && c.pausedReason && (
            <Descriptions.Item label={t('campaign.pausedReason')}>
              <Typography.Text
                type={c.pausedReason === 'failure-threshold' ? 'danger' : undefined}
                data-testid="campaign-paused-reason"
              >
                {t(`campaign.pausedReasons.${c.pausedReason}`)}
              </Typography.Text>
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('campaign.createBy')}>{c.createBy ?? '-'}</Descriptions.Item>
          <Descriptions.Item label={t('campaign.createTime')}>
            {formatDateTime(c.createTime)}
          </Descriptions.Item>
          {c.endTime && (
            <Descriptions.Item label={t('campaign.endTime')}>
              {formatDateTime(c.endTime)}
            </Descriptions.Item>
          )}
        </Descriptions>
        {c.kind === 'config' && c.configPatch && (
          <div style={{ marginTop: 12 }}>
            <Typography.Text type="secondary">{t('campaign.patch')}</Typography.Text>
            <pre
              style={{
                margin: '4px 0 0',
                padding: 12,
                background: token.colorFillAlter,
                borderRadius: token.borderRadius,
                maxHeight: 240,
                overflow: 'auto',
              }}
              data-testid="campaign-patch"
            >
              {JSON.stringify(c.configPatch, null, 2)}
            </pre>
          </div>
        )}
      </Card>

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
