import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import {
  QUARTZ_JOB_STATUSES,
  QUARTZ_JOB_TYPES,
  type TPlatformJob,
  type TQuartzJob,
  type TQuartzJobStatus,
  type TQuartzJobType,
} from '@blrms/contracts';
import { App, Button, Card, Popconfirm, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { OUTCOME_COLORS, QuartzJobHistory, duration } from './QuartzJobHistory';
import { QuartzJobModal } from './QuartzJobModal';
import {
  PLATFORM_KEY,
  QUARTZ_KEY,
  quartzApi,
  usePlatformJobs,
  useQuartzJobs,
  type QuartzJobParams,
} from './use-quartz-jobs';
import './quartz-job.css';

type Search = { name?: string; jobType?: TQuartzJobType; status?: TQuartzJobStatus };

const DEFAULT_PARAMS: QuartzJobParams = { pageNo: 1, pageSize: 10, order: 'desc' };

type History = { kind: 'operator' | 'platform'; key: string; title: string };

/**
 * 定时任务: the company's own jobs (device operations and the fleet report on a cron schedule)
 * and, for platform administrators, the server's own periodic jobs.
 */
export default function QuartzJobListPage() {
  const { t } = useTranslation();
  const platform = usePlatformJobs();
  const [history, setHistory] = useState<History | null>(null);
  const tabs = [
    {
      key: 'operator',
      label: t('quartz.tabOperator'),
      children: <OperatorJobs onHistory={setHistory} />,
    },
    ...(platform.data
      ? [
          {
            key: 'platform',
            label: t('quartz.tabPlatform'),
            children: <PlatformJobs jobs={platform.data} onHistory={setHistory} />,
          },
        ]
      : []),
  ];
  return (
    <Card data-testid="quartz-page" styles={{ body: { paddingTop: 4 } }}>
      <Tabs items={tabs} destroyOnHidden />
      {history && (
        <QuartzJobHistory
          kind={history.kind}
          jobKey={history.key}
          title={history.title}
          onClose={() => setHistory(null)}
        />
      )}
    </Card>
  );
}

function OperatorJobs({ onHistory }: { onHistory: (h: History) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const list = useListPage<QuartzJobParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      name: values.name?.trim() || undefined,
      jobType: values.jobType,
      status: values.status,
    }),
  });
  const jobs = useQuartzJobs(list.params);
  const [editing, setEditing] = useState<TQuartzJob | null | undefined>(undefined);
  const can = {
    add: useHasAction('system:quartzJob:add'),
    edit: useHasAction('system:quartzJob:edit'),
    delete: useHasAction('system:quartzJob:delete'),
    pause: useHasAction('system:quartzJob:pause'),
    resume: useHasAction('system:quartzJob:resume'),
    execute: useHasAction('system:quartzJob:execute'),
  };
  const invalidates = [[QUARTZ_KEY]];
  const remove = useEntityMutation({
    mutationFn: (id: string) => quartzApi.delete(id),
    invalidates,
    successMessage: serverMessage,
  });
  const pause = useEntityMutation({
    mutationFn: (id: string) => quartzApi.pause(id),
    invalidates,
    successMessage: serverMessage,
  });
  const resume = useEntityMutation({
    mutationFn: (id: string) => quartzApi.resume(id),
    invalidates,
    successMessage: serverMessage,
  });
  const execute = useEntityMutation({
    mutationFn: (id: string) => quartzApi.execute(id),
    invalidates,
  });

  const columns: ProColumns<TQuartzJob>[] = [
    {
      title: t('quartz.name'),
      dataIndex: 'name',
      width: 180,
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid="quartz-row-name">
            {row.name}
          </Typography.Text>
          {row.description && <Typography.Text type="secondary">{row.description}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('quartz.jobType'),
      dataIndex: 'jobType',
      width: 160,
      valueType: 'select',
      fieldProps: {
        options: QUARTZ_JOB_TYPES.map((type) => ({
          value: type,
          label: t(`quartz.types.${type}`),
        })),
      },
      render: (_, row) => <Tag>{t(`quartz.types.${row.jobType}`)}</Tag>,
    },
    {
      title: t('quartz.cron'),
      dataIndex: 'cron',
      hideInSearch: true,
      width: 190,
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Typography.Text code>{row.cron}</Typography.Text>
          <Typography.Text type="secondary">{row.timeZone}</Typography.Text>
        </Space>
      ),
    },
    {
      title: t('quartz.status'),
      dataIndex: 'status',
      width: 110,
      valueType: 'select',
      fieldProps: {
        options: QUARTZ_JOB_STATUSES.map((s) => ({ value: s, label: t(`quartz.statuses.${s}`) })),
      },
      render: (_, row) => (
        <Space size={4} wrap>
          <Tag
            color={row.status === 'normal' ? 'processing' : 'default'}
            data-testid="quartz-row-status"
          >
            {t(`quartz.statuses.${row.status}`)}
          </Tag>
          {row.running && <Tag color="blue">{t('quartz.running')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('quartz.lastRun'),
      dataIndex: 'lastRun',
      hideInSearch: true,
      width: 220,
      render: (_, row) =>
        row.lastRun ? (
          <Space direction="vertical" size={0}>
            <span>
              <Tag color={OUTCOME_COLORS[row.lastRun.outcome]} data-testid="quartz-row-outcome">
                {t(`quartz.outcomes.${row.lastRun.outcome}`)}
              </Tag>
              {formatDateTime(row.lastRun.start)}
            </span>
            <Typography.Text type="secondary" ellipsis={{ tooltip: row.lastRun.message }}>
              {row.lastRun.message}
            </Typography.Text>
          </Space>
        ) : (
          t('quartz.never')
        ),
    },
    {
      title: t('quartz.nextRun'),
      dataIndex: 'nextRunTime',
      hideInSearch: true,
      width: 170,
      render: (_, row) => (row.nextRunTime ? formatDateTime(row.nextRunTime) : t('quartz.never')),
    },
    {
      title: t('quartz.actions'),
      valueType: 'option',
      width: 300,
      render: (_, row) => [
        can.edit && (
          <Button key="edit" type="link" size="small" onClick={() => setEditing(row)}>
            {t('quartz.editShort')}
          </Button>
        ),
        row.status === 'normal'
          ? can.pause && (
              <Button
                key="pause"
                type="link"
                size="small"
                onClick={() => pause.mutate(row.id)}
                data-testid={`quartz-pause-${row.name}`}
              >
                {t('quartz.pause')}
              </Button>
            )
          : can.resume && (
              <Button
                key="resume"
                type="link"
                size="small"
                onClick={() => resume.mutate(row.id)}
                data-testid={`quartz-resume-${row.name}`}
              >
                {t('quartz.resume')}
              </Button>
            ),
        can.execute && (
          <Popconfirm
            key="execute"
            title={t('quartz.executeConfirm', { name: row.name })}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={async () => {
              const { result } = await execute.mutateAsync(row.id);
              const text = `${t(`quartz.outcomes.${result.outcome}`)}: ${result.message ?? ''}`;
              if (result.outcome === 'ok') void message.success(text);
              else void message.warning(text);
            }}
          >
            <Button type="link" size="small" data-testid={`quartz-execute-${row.name}`}>
              {t('quartz.execute')}
            </Button>
          </Popconfirm>
        ),
        <Button
          key="history"
          type="link"
          size="small"
          onClick={() => onHistory({ kind: 'operator', key: row.id, title: row.name })}
          data-testid={`quartz-history-${row.name}`}
        >
          {t('quartz.history')}
        </Button>,
        can.delete && (
          <Popconfirm
            key="delete"
            title={t('quartz.deleteConfirm', { name: row.name })}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id)}
          >
            <Button type="link" size="small" danger data-testid={`quartz-delete-${row.name}`}>
              {t('quartz.delete')}
            </Button>
          </Popconfirm>
        ),
      ],
    },
  ];

  return (
    <>
      <ProTable<TQuartzJob, Search>
        rowKey="id"
        {...list.tableProps(jobs)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: true }}
        scroll={{ x: 1100 }}
        cardProps={{ bodyStyle: { padding: 0 } }}
        toolBarRender={() => [
          can.add && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing(null)}
              data-testid="quartz-add"
            >
              {t('quartz.add')}
            </Button>
          ),
        ]}
      />
      {editing !== undefined && (
        <QuartzJobModal job={editing} onClose={() => setEditing(undefined)} />
      )}
    </>
  );
}

function PlatformJobs({
  jobs,
  onHistory,
}: {
  jobs: TPlatformJob[];
  onHistory: (h: History) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const invalidates = [[PLATFORM_KEY]];
  const pause = useEntityMutation({
    mutationFn: (name: string) => quartzApi.platformPause(name),
    invalidates,
    successMessage: serverMessage,
  });
  const resume = useEntityMutation({
    mutationFn: (name: string) => quartzApi.platformResume(name),
    invalidates,
    successMessage: serverMessage,
  });
  const execute = useEntityMutation({
    mutationFn: (name: string) => quartzApi.platformExecute(name),
    invalidates,
  });
  const canPause = useHasAction('system:quartzJob:pause');
  const canResume = useHasAction('system:quartzJob:resume');
  const canExecute = useHasAction('system:quartzJob:execute');
  const interval = (everyMs: number) => {
    if (everyMs % 3_600_000 === 0) return t('quartz.everyHours', { n: everyMs / 3_600_000 });
    if (everyMs % 60_000 === 0) return t('quartz.everyMinutes', { n: everyMs / 60_000 });
    return t('quartz.everySeconds', { n: Math.round(everyMs / 100) / 10 });
  };

  return (
    <>
      <Typography.Paragraph type="secondary">{t('quartz.platformHint')}</Typography.Paragraph>
      <Table<TPlatformJob>
        rowKey="name"
        dataSource={jobs}
        size="small"
        pagination={false}
        scroll={{ x: 1000 }}
        data-testid="quartz-platform-table"
        columns={[
          {
            title: t('quartz.name'),
            dataIndex: 'name',
            width: 240,
            render: (name: string) => <Typography.Text code>{name}</Typography.Text>,
          },
          {
            title: t('quartz.scope'),
            dataIndex: 'scope',
            width: 150,
            render: (_, j) => t(`quartz.scopes.${j.scope}`),
          },
          {
            title: t('quartz.interval'),
            dataIndex: 'everyMs',
            width: 110,
            render: (_, j) => interval(j.everyMs),
          },
          {
            title: t('quartz.status'),
            dataIndex: 'paused',
            width: 150,
            render: (_, j) => (
              <Space size={4} wrap>
                <Tag
                  color={j.paused ? 'default' : 'processing'}
                  data-testid={`platform-status-${j.name}`}
                >
                  {t(`quartz.statuses.${j.paused ? 'paused' : 'normal'}`)}
                </Tag>
                {j.runningSince && <Tag color="blue">{t('quartz.running')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('quartz.lastRun'),
            dataIndex: 'lastRun',
            width: 230,
            render: (_, j) =>
              j.lastRun ? (
                <span>
                  <Tag color={OUTCOME_COLORS[j.lastRun.outcome]}>
                    {t(`quartz.outcomes.${j.lastRun.outcome}`)}
                  </Tag>
                  {formatDateTime(j.lastRun.start)} · {duration(j.lastRun.durationMs)}
                </span>
              ) : (
                t('quartz.never')
              ),
          },
          {
            title: t('quartz.leader'),
            dataIndex: 'leader',
            width: 160,
            render: (_, j) => j.leader ?? t('quartz.never'),
          },
          {
            title: t('quartz.runs'),
            dataIndex: 'runs',
            width: 110,
            render: (_, j) => `${j.runs} / ${j.failures}`,
          },
          {
            title: t('quartz.actions'),
            key: 'actions',
            width: 230,
            render: (_, j) => (
              <Space size={0} wrap>
                {j.pausable &&
                  (j.paused
                    ? canResume && (
                        <Button type="link" size="small" onClick={() => resume.mutate(j.name)}>
                          {t('quartz.resume')}
                        </Button>
                      )
                    : canPause && (
                        <Button
                          type="link"
                          size="small"
                          onClick={() => pause.mutate(j.name)}
                          data-testid={`platform-pause-${j.name}`}
                        >
                          {t('quartz.pause')}
                        </Button>
                      ))}
                {canExecute && (
                  <Button
                    type="link"
                    size="small"
                    onClick={async () => {
                      const { result } = await execute.mutateAsync(j.name);
                      if (result.outcome === 'not-leader') {
                        void message.info(t('quartz.notLeader', { leader: j.leader ?? '' }));
                      } else if (result.outcome === 'ok') {
                        void message.success(t('quartz.outcomes.ok'));
                      } else {
                        void message.error(t('quartz.outcomes.failed'));
                      }
                    }}
                  >
                    {t('quartz.execute')}
                  </Button>
                )}
                <Button
                  type="link"
                  size="small"
                  onClick={() => onHistory({ kind: 'platform', key: j.name, title: j.name })}
                >
                  {t('quartz.history')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
