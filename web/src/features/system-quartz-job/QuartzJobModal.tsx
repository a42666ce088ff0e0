import {
  DEVICE_SERIES,
  QUARTZ_JOB_TYPES,
  QUARTZ_REPORT_RECEIVERS_MAX,
  type TQuartzJob,
  type TQuartzJobInput,
  type TQuartzJobType,
} from '@blrms/contracts';
import type { ButtonProps } from 'antd';
import { Alert, Form, Input, InputNumber, List, Modal, Select, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { submitForm, type FieldName } from '../../shared/field-errors';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useLoginUser } from '../../shared/use-login-user';
import {
  QUARTZ_KEY,
  quartzApi,
  useCampaignOptions,
  useCronPreview,
  useGroupOptions,
  useUserOptions,
} from './use-quartz-jobs';

type Values = {
  name: string;
  jobType: TQuartzJobType;
  cron: string;
  timeZone: string;
  description?: string;
  groupId?: string;
  series?: string;
  timeoutSec?: number;
  configPatchText?: string;
  campaignId?: string;
  userIds?: string[];
  offlineTop?: number;
};

/** The campaign type, by position: its name reads like a text key of the campaign feature. */
const CAMPAIGN_START = QUARTZ_JOB_TYPES[2];

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function zones(): string[] {
  const all = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  return all ? all('timeZone') : ['UTC', browserZone()];
}

function valuesOf(job: TQuartzJob | null): Partial<Values> {
  if (!job) return { jobType: 'device.reboot', cron: '0 3 * * *', timeZone: browserZone() };
  const p = job.params as Record<string, unknown>;
  return {
    name: job.name,
    jobType: job.jobType,
    cron: job.cron,
    timeZone: job.timeZone,
    description: job.description ?? undefined,
    groupId: p.groupId as string | undefined,
    series: p.series as string | undefined,
    timeoutSec: p.timeoutSec as number | undefined,
    configPatchText: p.configPatch ? JSON.stringify(p.configPatch, null, 2) : undefined,
    campaignId: p.campaignId as string | undefined,
    userIds: p.userIds as string[] | undefined,
    offlineTop: p.offlineTop as number | undefined,
  };
}

/** The request for the form's values: only the chosen type's parameters. */
function inputOf(v: Values): TQuartzJobInput {
  const common = {
    name: v.name,
    cron: v.cron,
    timeZone: v.timeZone,
    ...(v.description ? { description: v.description } : {}),
  };
  switch (v.jobType) {
    case 'device.reboot':
      return {
        ...common,
        jobType: v.jobType,
        params: {
          ...(v.groupId ? { groupId: v.groupId } : {}),
          ...(v.series ? { series: v.series as (typeof DEVICE_SERIES)[number] } : {}),
          timeoutSec: v.timeoutSec ?? 60,
        },
      };
    case 'device.config':
      return {
        ...common,
        jobType: v.jobType,
        params: {
          groupId: v.groupId!,
          series: v.series as (typeof DEVICE_SERIES)[number],
          configPatch: JSON.parse(v.configPatchText ?? '{}') as Record<string, unknown>,
        },
      };
    case 'fleet.report':
      return {
        ...common,
        jobType: v.jobType,
        params: { userIds: v.userIds ?? [], offlineTop: v.offlineTop ?? 10 },
      };
    default:
      // The campaign type (its name reads like a text key of the campaign feature).
      return { ...common, jobType: v.jobType, params: { campaignId: v.campaignId! } };
  }
}

/** A server path (`params.configPatch.wifi.ssid`) to the form field that holds it. */
function fieldOf(path: string[]): FieldName | null {
  const [head, second] = path;
  if (head !== 'params')
    return ['name', 'jobType', 'cron', 'timeZone', 'description'].includes(head!) ? [head!] : null;
  if (second === 'configPatch') return ['configPatchText'];
  return second ? [second] : null;
}

/** Add or edit an operator job: schedule with its next five runs, and the type's parameters. */
export function QuartzJobModal({ job, onClose }: { job: TQuartzJob | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const user = useLoginUser();
  const jobType = Form.useWatch('jobType', form) ?? job?.jobType ?? 'device.reboot';
  const cron = Form.useWatch('cron', form);
  const timeZone = Form.useWatch('timeZone', form);
  const preview = useCronPreview(cron, timeZone);
  const needsGroup = jobType === 'device.reboot' || jobType === 'device.config';
  const groups = useGroupOptions(needsGroup);
  const campaigns = useCampaignOptions(jobType === CAMPAIGN_START);
  const users = useUserOptions(jobType === 'fleet.report');
  const zoneOptions = useMemo(() => zones().map((z) => ({ value: z, label: z })), []);

  const save = useEntityMutation({
    mutationFn: (input: TQuartzJobInput) =>
      job ? quartzApi.edit({ ...input, id: job.id }) : quartzApi.add(input),
    invalidates: [[QUARTZ_KEY]],
    successMessage: serverMessage,
  });

  const required = (label: string) => ({
    required: true,
    message: t('quartz.required', { field: label }),
  });

  const onFinish = async (values: Values) => {
    const saved = await submitForm(form, () => save.mutateAsync(inputOf(values)), fieldOf);
    if (saved) onClose();
  };

  return (
    <Modal
      open
      width={720}
      title={job ? t('quartz.edit') : t('quartz.add')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'quartz-save' } as ButtonProps}
    >
      <Typography.Paragraph type="secondary">
        {t('quartz.actsAs', { user: user?.username ?? '' })}
      </Typography.Paragraph>
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={valuesOf(job)}
        onFinish={(values) => void onFinish(values)}
      >
        <Form.Item name="name" label={t('quartz.name')} rules={[required(t('quartz.name'))]}>
          <Input maxLength={64} data-testid="quartz-name" />
        </Form.Item>
        <Form.Item
          name="jobType"
          label={t('quartz.jobType')}
          rules={[required(t('quartz.jobType'))]}
        >
          <Select
            disabled={job !== null}
            data-testid="quartz-type"
            options={QUARTZ_JOB_TYPES.map((type) => ({
              value: type,
              label: t(`quartz.types.${type}`),
            }))}
          />
        </Form.Item>
        <Form.Item
          name="cron"
          label={t('quartz.cron')}
          extra={t('quartz.cronHelp')}
          rules={[required(t('quartz.cron'))]}
        >
          <Input maxLength={120} data-testid="quartz-cron" />
        </Form.Item>
        <Form.Item
          name="timeZone"
          label={t('quartz.timeZone')}
          rules={[required(t('quartz.timeZone'))]}
        >
          <Select showSearch options={zoneOptions} data-testid="quartz-zone" />
        </Form.Item>
        <div className="quartz-preview" data-testid="quartz-preview">
          <Typography.Text strong>{t('quartz.preview', { zone: timeZone ?? '' })}</Typography.Text>
          {preview.error ? (
            <Alert type="error" showIcon message={preview.error.message} />
          ) : preview.data ? (
            <List
              size="small"
              dataSource={preview.data.local}
              renderItem={(time) => <List.Item data-testid="quartz-preview-run">{time}</List.Item>}
            />
          ) : (
            <Typography.Paragraph type="secondary">{t('quartz.previewEmpty')}</Typography.Paragraph>
          )}
        </div>

        {needsGroup && (
          <Form.Item
            name="groupId"
            label={t('quartz.group')}
            rules={jobType === 'device.config' ? [required(t('quartz.group'))] : []}
          >
            <Select
              allowClear
              showSearch
              optionFilterProp="label"
              loading={groups.isLoading}
              data-testid="quartz-group"
              options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
            />
          </Form.Item>
        )}
        {needsGroup && (
          <Form.Item
            name="series"
            label={t('quartz.series')}
            dependencies={['groupId']}
            rules={
              jobType === 'device.config'
                ? [required(t('quartz.series'))]
                : [
                    ({ getFieldValue }) => ({
                      validator: (_, value) =>
                        value || getFieldValue('groupId')
                          ? Promise.resolve()
                          : Promise.reject(new Error(t('quartz.groupOrSeries'))),
                    }),
                  ]
            }
          >
            <Select
              allowClear
              data-testid="quartz-series"
              options={DEVICE_SERIES.map((s) => ({ value: s, label: s }))}
            />
          </Form.Item>
        )}
        {jobType === 'device.reboot' && (
          <Form.Item name="timeoutSec" label={t('quartz.timeoutSec')} initialValue={60}>
            <InputNumber min={5} max={300} />
          </Form.Item>
        )}
        {jobType === 'device.config' && (
          <Form.Item
            name="configPatchText"
            label={t('quartz.configPatch')}
            extra={t('quartz.configPatchHelp')}
            rules={[
              required(t('quartz.configPatch')),
              {
                validator: (_, value: string | undefined) => {
                  if (!value) return Promise.resolve();
                  try {
                    const parsed: unknown = JSON.parse(value);
                    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
                      return Promise.resolve();
                  } catch {
                    // Reported below.
                  }
                  return Promise.reject(new Error(t('quartz.configPatchInvalid')));
                },
              },
            ]}
          >
            <Input.TextArea rows={4} spellCheck={false} data-testid="quartz-patch" />
          </Form.Item>
        )}
        {jobType === CAMPAIGN_START && (
          <Form.Item
            name="campaignId"
            label={t('quartz.campaign')}
            extra={t('quartz.campaignHelp')}
            rules={[required(t('quartz.campaign'))]}
          >
            <Select
              showSearch
              optionFilterProp="label"
              loading={campaigns.isLoading}
              data-testid="quartz-campaign"
              options={(campaigns.data?.records ?? []).map((c) => ({
                value: c.id,
                label: `${c.name} (${c.state})`,
              }))}
            />
          </Form.Item>
        )}
        {jobType === 'fleet.report' && (
          <>
            <Form.Item
              name="userIds"
              label={t('quartz.receivers')}
              rules={[required(t('quartz.receivers'))]}
            >
              <Select
                mode="multiple"
                maxCount={QUARTZ_REPORT_RECEIVERS_MAX}
                optionFilterProp="label"
                loading={users.isLoading}
                data-testid="quartz-receivers"
                options={(users.data?.records ?? []).map((u) => ({
                  value: u.id,
                  label: `${u.realname} (${u.username})`,
                }))}
              />
            </Form.Item>
            <Form.Item name="offlineTop" label={t('quartz.offlineTop')} initialValue={10}>
              <InputNumber min={1} max={50} />
            </Form.Item>
          </>
        )}
        <Form.Item name="description" label={t('quartz.description')}>
          <Input maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
