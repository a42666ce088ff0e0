import type { TCampaign, TCampaignCounts, TCampaignProgress } from '@blrms/contracts';
import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import {
  activeCount,
  deviceErrorText,
  finishedPercent,
  pageWithProgress,
  progressSegments,
  statePercent,
  statesOfKind,
  withProgress,
} from './campaign-progress';

const ID = 'a'.repeat(32);

function counts(partial: Partial<TCampaignCounts>): TCampaignCounts {
  return {
    queued: 0,
    notified: 0,
    downloading: 0,
    downloaded: 0,
    verified: 0,
    updating: 0,
    updated: 0,
    failed: 0,
    canceled: 0,
    ...partial,
  };
}

const campaign: TCampaign = {
  id: ID,
  name: 'R40 2.0.0',
  kind: 'ota',
  state: 'running',
  pausedReason: null,
  currentWave: 0,
  gate: null,
  gateUntil: null,
  thresholdWave: null,
  waveDeadline: null,
  total: 10,
  counts: counts({ queued: 10 }),
  waitingOffline: 0,
  endTime: null,
  firmwareId: 'f'.repeat(32),
  firmwareVersion: '2.0.0',
  series: 'R40',
  configPatch: null,
  target: { series: 'R40' },
  waves: [10, 100],
  maxConcurrent: 100,
  failureThresholdPercent: 20,
  soakMinutes: 0,
  approveEachWave: false,
  waveDeadlineMinutes: null,
  onWaveDeadline: 'continue',
  startAt: null,
  window: null,
  jitterSec: 0,
  createBy: 'admin',
  createTime: '2026-01-01T00:00:00.000Z',
};

const progress = (partial: Partial<TCampaignProgress>): TCampaignProgress => ({
  id: ID,
  state: 'running',
  pausedReason: null,
  currentWave: 0,
  gate: null,
  gateUntil: null,
  thresholdWave: null,
  waveDeadline: null,
  total: 10,
  counts: counts({ queued: 10 }),
  waitingOffline: 0,
  endTime: null,
  ...partial,
});

describe('campaign progress', () => {
  it('counts finished devices, rounding down so that 100 % means done', () => {
    expect(
      finishedPercent({ total: 3, counts: counts({ updated: 1, failed: 1, queued: 1 }) }),
    ).toBe(66);
    expect(finishedPercent({ total: 1000, counts: counts({ updated: 999, queued: 1 }) })).toBe(99);
    expect(finishedPercent({ total: 4, counts: counts({ updated: 3, canceled: 1 }) })).toBe(100);
    expect(finishedPercent({ total: 0, counts: counts({}) })).toBe(0);
  });

  it('adds up the states in which a device is being worked on', () => {
    expect(
      activeCount(
        counts({ notified: 1, downloading: 2, downloaded: 3, verified: 4, updating: 5, queued: 9 }),
      ),
    ).toBe(15);
  });

  it('draws the bar from updated, failed, canceled, in progress and queued, leaving out empty parts', () => {
    expect(
      progressSegments({
        total: 8,
        counts: counts({ updated: 4, failed: 1, downloading: 1, updating: 1, queued: 1 }),
      }),
    ).toEqual([
      { part: 'updated', count: 4, percent: 50 },
      { part: 'failed', count: 1, percent: 12.5 },
      { part: 'active', count: 2, percent: 25 },
      { part: 'queued', count: 1, percent: 12.5 },
    ]);
    expect(progressSegments({ total: 0, counts: counts({}) })).toEqual([]);
  });

  it("gives each state's share with one decimal", () => {
    expect(statePercent(1, 3)).toBe(33.3);
    expect(statePercent(0, 0)).toBe(0);
  });

  it('applies a live message to the campaign it concerns, and only when something changed', () => {
    const next = withProgress(
      campaign,
      progress({ counts: counts({ queued: 9, notified: 1 }), currentWave: 1 }),
    );
    expect(next.counts.notified).toBe(1);
    expect(next.currentWave).toBe(1);
    expect(next.name).toBe(campaign.name);
    const gated = withProgress(
      campaign,
      progress({ gate: 'soak', gateUntil: '2026-01-01T01:00:00.000Z' }),
    );
    expect(gated).toMatchObject({ gate: 'soak', gateUntil: '2026-01-01T01:00:00.000Z' });
    expect(withProgress(campaign, progress({}))).toBe(campaign);
    expect(withProgress(campaign, progress({ id: 'b'.repeat(32), total: 5 }))).toBe(campaign);
  });

  it('patches the rows of a page, leaving a page it does not concern as it is', () => {
    const page = { records: [campaign], total: 1 };
    expect(pageWithProgress(page, [progress({})])).toBe(page);
    expect(pageWithProgress(page, [progress({ id: 'b'.repeat(32), total: 3 })])).toBe(page);

    const done = pageWithProgress(page, [
      progress({ state: 'completed', counts: counts({ updated: 10 }) }),
    ]);
    expect(done.records[0]?.state).toBe('completed');
    expect(done.total).toBe(1);
    expect(page.records[0]?.state).toBe('running');
  });

  it('says the engine’s failure reasons in the user’s language, a device’s own as they came', () => {
    const t = ((key: string, options?: Record<string, string>) =>
      options ? `${key} ${JSON.stringify(options)}` : key) as unknown as TFunction;
    expect(deviceErrorText(t, 'offline at wave deadline')).toBe(
      'campaign.errors.offlineAtWaveDeadline',
    );
    expect(deviceErrorText(t, 'timeout in downloading')).toBe(
      'campaign.errors.timeoutIn {"step":"campaign.deviceStates.downloading"}',
    );
    expect(deviceErrorText(t, 'failed in updating')).toBe(
      'campaign.errors.failedIn {"step":"campaign.deviceStates.updating"}',
    );
    expect(deviceErrorText(t, 'refused by the device')).toBe('campaign.errors.refusedByDevice');
    expect(deviceErrorText(t, 'timeout in nowhere')).toBe('timeout in nowhere');
    expect(deviceErrorText(t, 'flash write error')).toBe('flash write error');
  });

  it('lists the download states only for upgrades', () => {
    expect(statesOfKind('config')).toEqual(['queued', 'notified', 'updated', 'failed', 'canceled']);
    expect(statesOfKind('ota')).toHaveLength(9);
  });
});
