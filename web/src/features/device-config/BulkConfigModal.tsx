import type { TCampaignCreateInput, TDevice, TDeviceSeries } from '@blrms/contracts';
import { DEVICE_SERIES } from '@blrms/contracts';
import {
  Alert,
  App,
  Card,
  Col,
  Divider,
  Empty,
  Form,
  Input,
  Modal,
  Radio,
  Row,
  Select,
  Typography,
} from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, reportApiError } from '../../api/errors';
import { fieldErrorsOf } from '../../shared/field-errors';
import { formatNumber } from '../../shared/format';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { useDictOptions } from '../../shared/use-dict-items';
import type { RolloutValues, WavePreset } from '../campaign/campaign-form';
import {
  formatWaves,
  INITIAL_ROLLOUT,
  ROLLOUT_FIELDS,
  rolloutBodyOf,
  WAVE_PRESET_KEYS,
  WAVE_PRESETS,
} from '../campaign/campaign-form';
import { RolloutFields } from '../campaign/RolloutFields';
import { useCreateCampaign, useGroupChoices, useTagChoices } from '../campaign/use-campaigns';
import { configFields, patchOf, setValueAt, valueAt, valueFields } from './config-fields';
import { patchProblems, serverFieldName } from './config-problems';
import { ConfigForm } from './ConfigForm';
import { useBulkPreview } from './use-device-config';

type TargetKind = 'selection' | 'group' | 'tags' | 'series';
type Values = Record<string, unknown>;
type Rollout = RolloutValues & {
  name: string;
  wavePreset: Exclude<WavePreset, 'custom'>;
};

const ROLLOUT_FORM_FIELDS: readonly string[] = ['name', ...ROLLOUT_FIELDS];
/** A configuration change is small and quick to undo: a tenth first, then the rest. */
const INITIAL_BULK_ROLLOUT: Omit<Rollout, 'name'> = {
  ...INITIAL_ROLLOUT,
  wavePreset: 'tenth',
};
const MASK = '••••••••';

/** The series of the selected devices, each with how many there are. */
function seriesCounts(devices: TDevice[]): [TDeviceSeries, number][] {
  const counts = new Map<TDeviceSeries, number>();
  for (const d of devices) counts.set(d.series, (counts.get(d.series) ?? 0) + 1);
  return [...counts];
}

/** The patch as shown: secrets masked (they are sent as typed). */
function shownPatch(series: TDeviceSeries, patch: Values): string {
  const shown = structuredClone(patch);
  for (const field of valueFields(configFields(series))) {
    if (field.kind !== 'text' || !field.password) continue;
    const value = valueAt(shown, field.path);
    if (typeof value === 'string' && value !== '') setValueAt(shown, field.path, MASK);
  }
  return JSON.stringify(shown, null, 2);
}

/**
 * Bulk configuration: one partial change (a JSON Merge Patch of the fields the user sets) applied
 * to the selected devices, a group or a whole series, rolled out in waves as a configuration
 * campaign. The patch follows one series' schema, so a selection must be of one series. Opens the
 * campaign's page once started.
 */
export default function BulkConfigModal({
  selected,
  onClose,
}: {
  selected: TDevice[];
  onClose: (started: boolean) => void;
}) {
  const { t } = useTranslation();
  const seriesOptions = useDictOptions(
    'device_series',
    DEVICE_SERIES,
    DEVICE_SERIES.map((s) => ({ value: s, label: s })),
  );
  const { message } = App.useApp();
  const navigate = useNavigate();
  const narrow = useNarrowScreen();
  const [configForm] = Form.useForm<Values>();
  const [rolloutForm] = Form.useForm<Rollout>();
  const [kind, setKind] = useState<TargetKind>(selected.length > 0 ? 'selection' : 'series');
  const [groupId, setGroupId] = useState<string>();
  const [tags, setTags] = useState<string[]>([]);
  const [pickedSeries, setPickedSeries] = useState<TDeviceSeries>();
  const [notice, setNotice] = useState<string | null>(null);
  const groups = useGroupChoices(kind === 'group');
  const tagChoices = useTagChoices(kind === 'tags');
  const create = useCreateCampaign();

  const selectionSeries = seriesCounts(selected);
  const mixed = kind === 'selection' && selectionSeries.length > 1;
  const series =
    kind === 'selection'
      ? selectionSeries.length === 1
        ? selectionSeries[0]![0]
        : undefined
      : pickedSeries;
  const target: TCampaignCreateInput['target'] | null =
    kind === 'selection'
      ? selected.length > 0
        ? { deviceIds: selected.map((d) => d.id) }
        : null
      : kind === 'group'
        ? groupId
          ? { groupId }
          : null
        : kind === 'tags'
          ? tags.length > 0
            ? { tags }
            : null
          : series
            ? { series }
            : null;
  const preview = useBulkPreview(series && target ? { series, target } : null);

  const watched = Form.useWatch([], { form: configForm, preserve: true }) as Values | undefined;
  const patch = series ? patchOf(configFields(series), watched ?? {}) : {};
  const changed = Object.keys(patch).length > 0;

  /** A new series (or target) starts the change over: the fields differ between series. */
  const resetPatch = () => {
    configForm.resetFields();
    setNotice(null);
  };

  const showServerProblems = (error: ApiError) => {
    const fields = series ? configFields(series) : [];
    const inPatch = fieldErrorsOf(error, (path) =>
      path[0] === 'configPatch' ? serverFieldName(fields, path.slice(1)) : null,
    );
    configForm.setFields(inPatch.fields.map((f) => ({ name: [...f.name], errors: f.errors })));
    if (!inPatch.rest) return;
    const inRollout = fieldErrorsOf(inPatch.rest, (path) =>
      path.length === 1 && ROLLOUT_FORM_FIELDS.includes(path[0]!) ? path : null,
    );
    rolloutForm.setFields(
      inRollout.fields.map((f) => ({ name: f.name[0] as keyof Rollout, errors: f.errors })),
    );
    setNotice(inRollout.rest?.message ?? null);
  };

  const submit = async () => {
    setNotice(null);
    if (!series || !target || mixed) {
      setNotice(t('deviceConfig.bulk.targetMissing'));
      return;
    }
    if (!changed) {
      setNotice(t('deviceConfig.bulk.nothingChanged'));
      return;
    }
    const problems = patchProblems(t, series, patch);
    if (problems.fields.length > 0 || problems.rest.length > 0) {
      configForm.setFields(problems.fields);
      if (problems.rest.length > 0) setNotice(problems.rest.join('; '));
      return;
    }
    try {
      await rolloutForm.validateFields();
    } catch {
      return;
    }
    // With the values of the options switched off, which have no field on screen.
    const rollout = rolloutForm.getFieldsValue(true) as Rollout;
    try {
      const campaign = await create.mutateAsync({
        name: rollout.name.trim(),
        kind: 'config',
        series,
        configPatch: patch,
        target,
        waves: [...WAVE_PRESETS[rollout.wavePreset]],
        ...rolloutBodyOf(rollout),
      });
      void message.success(
        campaign.state === 'scheduled'
          ? t('campaign.scheduled')
          : t('deviceConfig.bulk.started', { name: campaign.name }),
      );
      onClose(true);
      void navigate(`/device/campaign/${campaign.id}`);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if ([400, 403, 409].includes(e.status)) showServerProblems(e);
      else reportApiError(e);
    }
  };

  const previewText = () => {
    if (!series || !target) return t('deviceConfig.bulk.previewIdle');
    if (preview.isError) return t('deviceConfig.bulk.previewFailed');
    if (!preview.data) return t('deviceConfig.bulk.previewLoading');
    const { total, online, excluded } = preview.data;
    const main = t('deviceConfig.bulk.preview', {
      total: formatNumber(total),
      online: formatNumber(online),
    });
    return excluded > 0
      ? `${main} ${t('deviceConfig.bulk.previewExcluded', { count: excluded, series })}`
      : main;
  };

  return (
    <Modal
      open
      title={t('deviceConfig.bulk.title')}
      width={narrow ? '100%' : 960}
      okText={t('deviceConfig.bulk.start')}
      cancelText={t('common.cancel')}
      okButtonProps={{ disabled: mixed }}
      confirmLoading={create.isPending}
      onOk={() => void submit()}
      onCancel={() => onClose(false)}
      styles={{ body: { maxHeight: '70vh', overflowY: 'auto', overflowX: 'hidden' } }}
      data-testid="bulk-config-modal"
    >
      <Divider orientation="left" orientationMargin={0} plain style={{ marginTop: 0 }}>
        {t('deviceConfig.bulk.target')}
      </Divider>
      <Radio.Group
        optionType="button"
        value={kind}
        onChange={(e) => {
          setKind(e.target.value as TargetKind);
          resetPatch();
        }}
        options={[
          {
            value: 'selection',
            label: t('deviceConfig.bulk.targetSelection', { count: selected.length }),
            disabled: selected.length === 0,
          },
          { value: 'group', label: t('deviceConfig.bulk.targetGroup') },
          { value: 'tags', label: t('deviceConfig.bulk.targetTags') },
          { value: 'series', label: t('deviceConfig.bulk.targetSeries') },
        ]}
        style={{ marginBottom: 12 }}
        data-testid="bulk-target"
      />
      <Row gutter={16}>
        {kind === 'group' && (
          <Col xs={24} sm={12}>
            <Form.Item label={t('deviceConfig.bulk.group')} layout="vertical" required>
              <Select
                value={groupId}
                onChange={setGroupId}
                placeholder={t('deviceConfig.bulk.groupPlaceholder')}
                loading={groups.isPending}
                showSearch
                optionFilterProp="label"
                options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
                data-testid="bulk-group"
              />
            </Form.Item>
          </Col>
        )}
        {kind === 'tags' && (
          <Col xs={24} sm={12}>
            <Form.Item
              label={t('deviceConfig.bulk.tags')}
              layout="vertical"
              required
              extra={t('deviceConfig.bulk.tagsHint')}
            >
              <Select
                mode="multiple"
                value={tags}
                onChange={setTags}
                placeholder={t('deviceConfig.bulk.tagsPlaceholder')}
                loading={tagChoices.isPending}
                showSearch
                maxTagCount="responsive"
                options={(tagChoices.data ?? []).map((c) => ({
                  value: c.tag,
                  label: t('deviceConfig.bulk.tagCount', { tag: c.tag, count: c.count }),
                }))}
                data-testid="bulk-tags"
              />
            </Form.Item>
          </Col>
        )}
        {kind !== 'selection' && (
          <Col xs={24} sm={12}>
            <Form.Item
              label={t('deviceConfig.bulk.series')}
              layout="vertical"
              required
              extra={kind === 'group' ? t('deviceConfig.bulk.groupSeriesHint') : undefined}
            >
              <Select
                value={pickedSeries}
                onChange={(value: TDeviceSeries) => {
                  setPickedSeries(value);
                  resetPatch();
                }}
                placeholder={t('deviceConfig.bulk.seriesPlaceholder')}
                options={seriesOptions}
                data-testid="bulk-series"
              />
            </Form.Item>
          </Col>
        )}
      </Row>
      {mixed ? (
        <Alert
          type="error"
          showIcon
          message={t('deviceConfig.bulk.mixedSeries')}
          description={t('deviceConfig.bulk.mixedSeriesHint', {
            series: selectionSeries.map(([s, n]) => `${s} × ${n}`).join(', '),
          })}
          data-testid="bulk-mixed"
        />
      ) : (
        <Typography.Paragraph type="secondary" data-testid="bulk-preview">
          {kind === 'selection' && series ? t('deviceConfig.bulk.selectionSeries', { series }) : ''}
          {previewText()}
        </Typography.Paragraph>
      )}

      <Divider orientation="left" orientationMargin={0} plain>
        {t('deviceConfig.bulk.changes')}
      </Divider>
      {series && !mixed ? (
        <>
          <Typography.Paragraph type="secondary">
            {t('deviceConfig.bulk.changesHint')}
          </Typography.Paragraph>
          <ConfigForm key={series} series={series} form={configForm} mode="patch" />
          <Card size="small" title={t('deviceConfig.bulk.patch')}>
            {changed ? (
              <pre
                style={{ margin: 0, fontSize: 12, whiteSpace: 'pre-wrap' }}
                data-testid="bulk-patch"
              >
                {shownPatch(series, patch)}
              </pre>
            ) : (
              <Typography.Text type="secondary" data-testid="bulk-patch-empty">
                {t('deviceConfig.bulk.patchEmpty')}
              </Typography.Text>
            )}
          </Card>
        </>
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={t('deviceConfig.bulk.chooseSeries')}
        />
      )}

      <Divider orientation="left" orientationMargin={0} plain>
        {t('deviceConfig.bulk.rollout')}
      </Divider>
      <Form<Rollout>
        form={rolloutForm}
        layout="vertical"
        initialValues={{
          ...INITIAL_BULK_ROLLOUT,
          name: t('deviceConfig.bulk.defaultName', { time: dayjs().format('YYYY-MM-DD HH:mm') }),
        }}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label={t('deviceConfig.bulk.name')}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t('form.required', { field: t('deviceConfig.bulk.name') }),
                },
                {
                  max: 64,
                  message: t('form.maxLength', { field: t('deviceConfig.bulk.name'), max: 64 }),
                },
              ]}
            >
              <Input maxLength={64} data-testid="bulk-name" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item name="wavePreset" label={t('deviceConfig.bulk.waves')}>
              <Select
                options={WAVE_PRESET_KEYS.map((key) => ({
                  value: key,
                  label: `${t(`deviceConfig.bulk.wavePreset.${key}`)} (${formatWaves(WAVE_PRESETS[key])})`,
                }))}
                data-testid="bulk-waves"
              />
            </Form.Item>
          </Col>
        </Row>
        <RolloutFields />
      </Form>
      {notice && <Alert type="error" showIcon message={notice} data-testid="bulk-notice" />}
    </Modal>
  );
}
