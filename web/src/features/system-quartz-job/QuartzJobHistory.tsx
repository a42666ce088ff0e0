import type { TPlatformJobRun, TQuartzJobRun } from '@blrms/contracts';
import { Drawer, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { useJobRuns } from './use-quartz-jobs';

export const OUTCOME_COLORS: Record<string, string> = {
  ok: 'success',
  partial: 'warning',
  failed: 'error',
  skipped: 'default',
};

export function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** A job's runs: start, duration, outcome and message, and for operator jobs what reached devices. */
export function QuartzJobHistory({
  kind,
  jobKey,
  title,
  onClose,
}: {
  kind: 'operator' | 'platform';
  jobKey: string;
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const runs = useJobRuns(kind, jobKey);
  type Run = TQuartzJobRun | TPlatformJobRun;
  const rows = (runs.data ?? []) as Run[];

  return (
    <Drawer
      open
      width={narrow ? '100%' : 760}
      title={t('quartz.historyTitle', { name: title })}
      onClose={onClose}
      destroyOnHidden
      data-testid="quartz-history"
    >
      <Table<Run>
        rowKey={(r) => ('id' in r ? r.id : `${r.start}-${r.node}`)}
        loading={runs.isLoading}
        dataSource={rows}
        size="small"
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: 640 }}
        locale={{ emptyText: t('quartz.noHistory') }}
        columns={[
          {
            title: t('quartz.start'),
            dataIndex: 'start',
            width: 170,
            render: (_, r) => formatDateTime(r.start),
          },
          {
            title: t('quartz.duration'),
            dataIndex: 'durationMs',
            width: 90,
            render: (_, r) => duration(r.durationMs),
          },
          {
            title: t('quartz.outcome'),
            dataIndex: 'outcome',
            width: 100,
            render: (_, r) => (
              <Tag color={OUTCOME_COLORS[r.outcome]} data-testid="quartz-run-outcome">
                {t(`quartz.outcomes.${r.outcome}`)}
              </Tag>
            ),
          },
          {
            title: t('quartz.message'),
            dataIndex: 'message',
            render: (_, r) =>
              'trigger' in r ? (
                <>
                  <div data-testid="quartz-run-message">{r.message}</div>
                  <Typography.Text type="secondary">
                    {r.trigger === 'manual'
                      ? t('quartz.triggers.manual', { user: r.runBy ?? '' })
                      : t('quartz.scheduledFor', { time: formatDateTime(r.scheduledTime) })}
                  </Typography.Text>
                  {r.counts && (
                    <div>
                      <Typography.Text type="secondary">
                        {t('quartz.countsText', r.counts)}
                      </Typography.Text>
                    </div>
                  )}
                </>
              ) : (
                <>
                  {r.error && <div>{r.error}</div>}
                  <Typography.Text type="secondary">
                    {t('quartz.node')}: {r.node}
                  </Typography.Text>
                </>
              ),
          },
        ]}
      />
    </Drawer>
  );
}
