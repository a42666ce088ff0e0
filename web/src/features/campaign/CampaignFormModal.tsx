import type { TCampaign, TDevice } from '@blrms/contracts';
import { FIRMWARE_VERSION_PATTERN } from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Checkbox,
  Col,
  Divider,
  Form,
  Input,
  InputNumber,
  Modal,
  Radio,
  Row,
  Select,
  Space,
  Spin,
  Statistic,
  Switch,
  TimePicker,
  Typography,
  theme,
} from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportApiError } from '../../api/errors';
import { fieldErrorsOf } from '../../shared/field-errors';
import { formatBytes } from '../../shared/file-size';
import { formatNumber } from '../../shared/format';
import type { UpgradeFormValues, WavePreset } from './campaign-form';
import {
  browserUtcOffsetMinutes,
  formatUtcOffset,
  INITIAL_ROLLOUT,
  parseWaves,
  targetOf,
  upgradeBodyOf,
  upgradeFieldOf,
  WAVE_PRESET_KEYS,
} from './campaign-form';
import { RolloutFields } from './RolloutFields';
import type { CampaignPreviewBody } from './use-campaigns';
import {
  previewCampaign,
  searchDevices,
  useCreateCampaign,
  useFirmwareChoices,
  useGroupChoices,
} from './use-campaigns';

const INITIAL_VALUES: Partial<UpgradeFormValues> = {
  targetKind: 'devices',
  deviceIds: [],
  onlineOnly: false,
  wavePreset: 'all',
  ...INITIAL_ROLLOUT,
  windowOn: false,
  jitterSec: 0,
};

const PREVIEW_DELAY_MS = 300;
const SEARCH_DELAY_MS = 250;

const timeOfDay = (hhmm: string): Dayjs => {
  const [hour = 0, minute = 0] = hhmm.split(':').map(Number);
  return dayjs().hour(hour).minute(minute).second(0).millisecond(0);
};

/** The same value while it keeps changing, the new one once it has stood still for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const key = JSON.stringify(value);
  const [settledKey, setSettledKey] = useState(key);
  useEffect(() => {
    const timer = setTimeout(() => setSettledKey(key), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  // The key is the value's JSON, written just above.
  return useMemo(() => JSON.parse(settledKey) as T, [settledKey]);
}

type DeviceOption = { value: string; label: string };
const deviceOption = (d: TDevice): DeviceOption => ({ value: d.id, label: `${d.sn} · ${d.name}` });

/**
 * A new firmware upgrade: the firmware from the library, the devices (chosen by SN, a group or
 * the firmware's whole series, narrowed by current version and presence), the waves, concurrency,
 * failure threshold, daily window and jitter. The server's count of the devices the target
 * names is shown before anything starts, and its objections appear on the fields they name.
 */
export function CampaignFormModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (campaign: TCampaign) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { token } = theme.useToken();
  const [form] = Form.useForm<UpgradeFormValues>();
  const create = useCreateCampaign();
  const firmware = useFirmwareChoices(open);
  const groups = useGroupChoices(open);
  const [submitError, setSubmitError] = useState<string | null>(null);

  const firmwareId = Form.useWatch('firmwareId', form);
  const targetKind = Form.useWatch('targetKind', form) ?? 'devices';
  const deviceIds = Form.useWatch('deviceIds', form);
  const groupId = Form.useWatch('groupId', form);
  const versionFrom = Form.useWatch('versionFrom', form);
  const versionTo = Form.useWatch('versionTo', form);
  const onlineOnly = Form.useWatch('onlineOnly', form);
  const wavePreset = Form.useWatch('wavePreset', form) ?? 'all';
  const windowOn = Form.useWatch('windowOn', form) ?? false;

  const chosenFirmware = firmware.data?.find((f) => f.id === firmwareId);
  const series = chosenFirmware?.series;

  // Devices: searched by SN among the firmware's series; chosen ones keep their labels.
  const [deviceSearch, setDeviceSearch] = useState('');
  const searchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(searchTimer.current), []);
  const deviceResults = useQuery({
    queryKey: ['devices', 'campaign-choice', deviceSearch, series ?? null],
    queryFn: () => searchDevices(deviceSearch, series),
    enabled: open && targetKind === 'devices',
    placeholderData: keepPreviousData,
  });
  const [chosenDevices, setChosenDevices] = useState<DeviceOption[]>([]);
  const deviceOptions = useMemo(() => {
    const results = (deviceResults.data ?? []).map(deviceOption);
    const seen = new Set(results.map((o) => o.value));
    return [...chosenDevices.filter((o) => !seen.has(o.value)), ...results];
  }, [deviceResults.data, chosenDevices]);

  const versionsReadable = [versionFrom, versionTo].every(
    (v) => !v?.trim() || FIRMWARE_VERSION_PATTERN.test(v.trim()),
  );
  const target = targetOf(
    { targetKind, deviceIds, groupId, versionFrom, versionTo, onlineOnly },
    series,
  );
  const previewBody: CampaignPreviewBody | null =
    firmwareId && target && versionsReadable ? { kind: 'ota', firmwareId, target } : null;
  const settledBody = useSettled(previewBody, PREVIEW_DELAY_MS);
  const preview = useQuery({
    queryKey: ['campaigns', 'preview', settledBody],
    queryFn: () => previewCampaign(settledBody!),
    enabled: open && settledBody !== null,
    retry: false,
    placeholderData: keepPreviousData,
  });

  const close = () => {
    if (create.isPending) return;
    form.resetFields();
    setChosenDevices([]);
    setDeviceSearch('');
    setSubmitError(null);
    onClose();
  };

  const submit = async () => {
    setSubmitError(null);
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const values = form.getFieldsValue(true) as UpgradeFormValues;
    const body = upgradeBodyOf(values, series);
    if (!body) return;
    try {
      const created = await create.mutateAsync(body);
      void message.success(
        created.state === 'scheduled' ? t('campaign.scheduled') : t('campaign.started'),
      );
      form.resetFields();
      setChosenDevices([]);
      onCreated(created);
    } catch (e) {
      if (!(e instanceof ApiError)) return;
      if (e.status !== 400) {
        reportApiError(e);
        return;
      }
      const { fields, rest } = fieldErrorsOf(e, (path) => {
        const field = upgradeFieldOf(path, values.wavePreset);
        return field ? [field] : null;
      });
      form.setFields(
        fields.map((f) => ({ name: f.name[0] as keyof UpgradeFormValues, errors: f.errors })),
      );
      setSubmitError(rest?.message ?? null);
    }
  };

  const canStart =
    previewBody !== null &&
    preview.isSuccess &&
    !preview.isPlaceholderData &&
    preview.data.total > 0;

  const previewPanel = () => {
    if (previewBody === null) {
      return <Typography.Text type="secondary">{t('campaign.previewPending')}</Typography.Text>;
    }
    if (preview.isError) {
      return (
        <Alert
          type="error"
          showIcon
          message={preview.error.message || t('http.unknown')}
          data-testid="campaign-preview-error"
        />
      );
    }
    if (!preview.data) return <Spin size="small" />;
    const { total, online, excluded } = preview.data;
    return (
      <Spin spinning={preview.isFetching} size="small">
        <Row gutter={16}>
          <Col span={8}>
            <Statistic
              title={t('campaign.previewTotal')}
              value={formatNumber(total)}
              data-testid="campaign-preview-total"
            />
          </Col>
          <Col span={8}>
            <Statistic
              title={t('campaign.previewOnline')}
              value={formatNumber(online)}
              data-testid="campaign-preview-online"
            />
          </Col>
          <Col span={8}>
            <Statistic
              title={
                <span title={t('campaign.previewExcludedHint')}>
                  {t('campaign.previewExcluded')}
                </span>
              }
              value={formatNumber(excluded)}
              valueStyle={excluded > 0 ? { color: token.colorWarning } : undefined}
              data-testid="campaign-preview-excluded"
            />
          </Col>
        </Row>
        {total === 0 && (
          <Typography.Text type="warning">{t('campaign.previewNone')}</Typography.Text>
        )}
      </Spin>
    );
  };

  return (
    <Modal
      open={open}
      title={t('campaign.addTitle')}
      width={760}
      style={{ top: 24 }}
      onCancel={close}
      footer={
        <Space>
          <Button onClick={close}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            disabled={!canStart}
            loading={create.isPending}
            onClick={() => void submit()}
            data-testid="campaign-start"
          >
            {t('campaign.start')}
          </Button>
        </Space>
      }
      maskClosable={false}
      destroyOnHidden
      data-testid="campaign-form"
    >
      <Form<UpgradeFormValues>
        form={form}
        layout="vertical"
        initialValues={INITIAL_VALUES}
        onValuesChange={(changed: Partial<UpgradeFormValues>) => {
          if ('firmwareId' in changed && !form.isFieldTouched('name')) {
            const chosen = firmware.data?.find((f) => f.id === changed.firmwareId);
            if (chosen)
              form.setFieldValue(
                'name',
                t('campaign.defaultName', { series: chosen.series, version: chosen.version }),
              );
          }
        }}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="firmwareId"
              label={t('campaign.firmware')}
              rules={[
                { required: true, message: t('form.required', { field: t('campaign.firmware') }) },
              ]}
            >
              <Select
                showSearch
                optionFilterProp="label"
                placeholder={t('campaign.firmwarePlaceholder')}
                loading={firmware.isPending}
                options={(firmware.data ?? []).map((f) => ({
                  value: f.id,
                  label: t('campaign.firmwareOption', {
                    series: f.series,
                    version: f.version,
                    size: formatBytes(f.size),
                  }),
                }))}
                data-testid="campaign-firmware"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label={t('campaign.name')}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t('form.required', { field: t('campaign.name') }),
                },
                { max: 64, message: t('form.maxLength', { field: t('campaign.name'), max: 64 }) },
              ]}
            >
              <Input placeholder={t('campaign.namePlaceholder')} data-testid="campaign-name" />
            </Form.Item>
          </Col>
        </Row>

        <Divider orientation="left" plain style={{ marginTop: 0 }}>
          {t('campaign.target')}
        </Divider>
        <Form.Item name="targetKind">
          <Radio.Group
            optionType="button"
            options={(['devices', 'group', 'series'] as const).map((kind) => ({
              value: kind,
              label: t(`campaign.targetKinds.${kind}`),
            }))}
            data-testid="campaign-target-kind"
          />
        </Form.Item>
        {targetKind === 'devices' && (
          <Form.Item
            name="deviceIds"
            label={t('campaign.devices')}
            rules={[
              { required: true, message: t('form.required', { field: t('campaign.devices') }) },
            ]}
          >
            <Select
              mode="multiple"
              showSearch
              filterOption={false}
              onSearch={(text) => {
                clearTimeout(searchTimer.current);
                searchTimer.current = setTimeout(() => setDeviceSearch(text), SEARCH_DELAY_MS);
              }}
              onChange={(_: string[], options) =>
                setChosenDevices(([] as DeviceOption[]).concat(options as DeviceOption[]))
              }
              loading={deviceResults.isFetching}
              options={deviceOptions}
              placeholder={t('campaign.devicesPlaceholder')}
              maxTagCount="responsive"
              data-testid="campaign-devices"
            />
          </Form.Item>
        )}
        {targetKind === 'group' && (
          <Form.Item
            name="groupId"
            label={t('campaign.group')}
            rules={[
              { required: true, message: t('form.required', { field: t('campaign.group') }) },
            ]}
          >
            <Select
              showSearch
              optionFilterProp="label"
              placeholder={t('campaign.groupPlaceholder')}
              loading={groups.isPending}
              options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
              data-testid="campaign-group"
            />
          </Form.Item>
        )}
        {targetKind === 'series' && (
          <Form.Item>
            <Typography.Text type={series ? undefined : 'secondary'}>
              {series ? t('campaign.seriesTarget', { series }) : t('campaign.seriesNeedsFirmware')}
            </Typography.Text>
          </Form.Item>
        )}
        <Form.Item label={t('campaign.versionRange')} extra={t('campaign.versionRangeHint')}>
          <Space.Compact style={{ width: '100%', maxWidth: 420 }}>
            {(['versionFrom', 'versionTo'] as const).map((name) => (
              <Form.Item
                key={name}
                name={name}
                noStyle
                rules={[{ pattern: FIRMWARE_VERSION_PATTERN, message: t('firmware.versionRule') }]}
              >
                <Input
                  placeholder={t(`campaign.${name}`)}
                  allowClear
                  data-testid={`campaign-${name}`}
                />
              </Form.Item>
            ))}
          </Space.Compact>
        </Form.Item>
        <Form.Item name="onlineOnly" valuePropName="checked">
          <Checkbox data-testid="campaign-online-only">{t('campaign.onlineOnly')}</Checkbox>
        </Form.Item>
        <div
          style={{
            background: token.colorFillAlter,
            borderRadius: token.borderRadiusLG,
            padding: 12,
            marginBottom: 16,
          }}
          data-testid="campaign-preview"
        >
          <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
            {t('campaign.preview')}
          </Typography.Text>
          {previewPanel()}
        </div>

        <Divider orientation="left" plain>
          {t('campaign.rollout')}
        </Divider>
        <Form.Item name="wavePreset" label={t('campaign.waves')} extra={t('campaign.wavesHint')}>
          <Radio.Group
            options={[...WAVE_PRESET_KEYS, 'custom' as const].map((key: WavePreset) => ({
              value: key,
              label: t(`campaign.wavePresets.${key}`),
            }))}
            data-testid="campaign-waves"
          />
        </Form.Item>
        {wavePreset === 'custom' && (
          <Form.Item
            name="customWaves"
            rules={[
              {
                validator: (_, text: string | undefined) => {
                  const parsed = parseWaves(text ?? '');
                  return 'waves' in parsed
                    ? Promise.resolve()
                    : Promise.reject(new Error(t(`campaign.wavesProblem.${parsed.problem}`)));
                },
              },
            ]}
          >
            <Input
              placeholder={t('campaign.wavesCustomPlaceholder')}
              data-testid="campaign-custom-waves"
            />
          </Form.Item>
        )}
        <RolloutFields>
          <Col xs={12} md={6}>
            <Form.Item
              name="jitterSec"
              label={t('campaign.jitter')}
              tooltip={t('campaign.jitterHint')}
              rules={[
                { required: true, message: t('form.required', { field: t('campaign.jitter') }) },
              ]}
            >
              <InputNumber
                min={0}
                max={3600}
                precision={0}
                addonAfter={t('campaign.seconds')}
                style={{ width: '100%' }}
              />
            </Form.Item>
          </Col>
        </RolloutFields>
        <Form.Item label={t('campaign.window')} style={{ marginBottom: windowOn ? 8 : 24 }}>
          <Space wrap>
            <Form.Item name="windowOn" valuePropName="checked" noStyle>
              <Switch data-testid="campaign-window-on" />
            </Form.Item>
            <Typography.Text>{t('campaign.windowLimit')}</Typography.Text>
          </Space>
        </Form.Item>
        {windowOn && (
          <Form.Item
            name="window"
            extra={t('campaign.windowHint', {
              zone: formatUtcOffset(browserUtcOffsetMinutes()),
            })}
            getValueProps={(w?: { start: string; end: string }) => ({
              value: w ? [timeOfDay(w.start), timeOfDay(w.end)] : undefined,
            })}
            normalize={(range: [Dayjs, Dayjs] | null) =>
              range ? { start: range[0].format('HH:mm'), end: range[1].format('HH:mm') } : undefined
            }
            rules={[
              { required: true, message: t('form.required', { field: t('campaign.window') }) },
              {
                validator: (_, w?: { start: string; end: string }) =>
                  w && w.start === w.end
                    ? Promise.reject(new Error(t('campaign.windowSame')))
                    : Promise.resolve(),
              },
            ]}
          >
            <TimePicker.RangePicker format="HH:mm" order={false} data-testid="campaign-window" />
          </Form.Item>
        )}
        {submitError && (
          <Alert type="error" showIcon message={submitError} data-testid="campaign-form-error" />
        )}
      </Form>
    </Modal>
  );
}
