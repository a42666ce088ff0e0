import type { TCampaign } from '@blrms/contracts';
import { Descriptions, Space, Tag, Typography, theme } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../shared/format';
import { formatWaves, formatWindow, spansMidnight } from './campaign-form';
import { useGroupChoices } from './use-campaigns';

/** Spec section 9: a detail list has at most 4 columns, 3 by default; one on a phone. */
const DETAIL_COLUMNS = { xs: 1, sm: 2, md: 3, lg: 3, xl: 3, xxl: 4 };

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
  if (Array.isArray(target.tags))
    parts.push(t('campaign.targetTags', { tags: target.tags.join(', ') }));
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

/** A campaign's settings as a description list, and the patch of a configuration campaign. */
export function CampaignSettings({ campaign: c }: { campaign: TCampaign }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const groups = useGroupChoices(typeof c.target.groupId === 'string');
  const groupName = (groupId: string) =>
    groups.data?.find((g) => g.id === groupId)?.name ?? groupId;
  const open = c.state === 'scheduled' || c.state === 'running' || c.state === 'paused';

  return (
    <>
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
    </>
  );
}
