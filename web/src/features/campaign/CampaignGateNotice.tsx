import type { TCampaign } from '@blrms/contracts';
import { Alert } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime, formatNumber } from '../../shared/format';
import { useNarrowScreen } from '../../shared/use-narrow-screen';

type Notice = { type: 'info' | 'warning' | 'error'; text: string; testId: string };

/**
 * What holds a campaign, or how it ended, in a sentence: scheduled until a time, waiting for the
 * soak time or an approval, paused because a wave crossed the threshold, a wave's deadline for
 * its offline devices, failed and why, completed with failures. Nothing for a campaign that
 * simply runs or completed. `action` sits in the notice (the Approve button).
 */
export function CampaignGateNotice({
  campaign: c,
  action,
}: {
  campaign: TCampaign;
  action?: ReactNode;
}) {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const notices: Notice[] = [];
  const wave = (index: number | null) => (index ?? c.currentWave) + 1;
  const deadlineOutcome = t(`campaign.waveDeadlineOutcomes.${c.onWaveDeadline}`);

  if (c.state === 'scheduled' && c.startAt) {
    notices.push({
      type: 'info',
      text: t('campaign.gates.scheduled', { time: formatDateTime(c.startAt) }),
      testId: 'campaign-gate-scheduled',
    });
  }
  if (c.state === 'running' && c.gate === 'soak' && c.gateUntil) {
    notices.push({
      type: 'info',
      text: t('campaign.gates.soak', { wave: wave(null), time: formatDateTime(c.gateUntil) }),
      testId: 'campaign-gate-soak',
    });
  }
  if (c.state === 'running' && c.gate === 'approval') {
    notices.push({
      type: 'warning',
      text: t('campaign.gates.approval', { wave: wave(null), next: wave(null) + 1 }),
      testId: 'campaign-gate-approval',
    });
  }
  if (c.state === 'paused' && c.pausedReason === 'failure-threshold') {
    notices.push({
      type: 'error',
      text: t('campaign.gates.threshold', {
        wave: wave(c.thresholdWave),
        threshold: c.failureThresholdPercent,
      }),
      testId: 'campaign-gate-threshold',
    });
  }
  if ((c.state === 'running' || c.state === 'paused') && c.waveDeadline && !c.gate) {
    notices.push({
      type: 'info',
      text: t('campaign.gates.deadline', {
        time: formatDateTime(c.waveDeadline),
        outcome: deadlineOutcome,
      }),
      testId: 'campaign-gate-deadline',
    });
  }
  if (c.state === 'failed') {
    notices.push({
      type: 'error',
      text:
        c.thresholdWave === null
          ? t('campaign.gates.failedNothing')
          : t('campaign.gates.failedThreshold', {
              wave: wave(c.thresholdWave),
              threshold: c.failureThresholdPercent,
            }),
      testId: 'campaign-gate-failed',
    });
  }
  if (c.state === 'completed-with-failures') {
    notices.push({
      type: 'warning',
      text: t('campaign.gates.completedWithFailures', { failed: formatNumber(c.counts.failed) }),
      testId: 'campaign-gate-with-failures',
    });
  }
  if (notices.length === 0) return null;
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 8, marginBottom: 16 }}>
      {notices.map((n) => {
        const own = n.testId === 'campaign-gate-approval' ? action : undefined;
        // On a phone the button beside the text would squeeze it: it goes below.
        return (
          <Alert
            key={n.testId}
            type={n.type}
            showIcon
            message={
              own && narrow ? (
                <>
                  {n.text}
                  <div style={{ marginTop: 8 }}>{own}</div>
                </>
              ) : (
                n.text
              )
            }
            action={narrow ? undefined : own}
            data-testid={n.testId}
          />
        );
      })}
    </div>
  );
}
