import type { TCampaign, TDevice } from '@blrms/contracts';
import { FIRMWARE_VERSION_PATTERN } from '@blrms/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { App, Form } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportApiError } from '../../api/errors';
import { fieldErrorsOf } from '../../shared/field-errors';
import type { UpgradeFormValues } from './campaign-form';
import { INITIAL_ROLLOUT, targetOf, upgradeBodyOf, upgradeFieldOf } from './campaign-form';
import type { CampaignPreviewBody } from './use-campaigns';
import {
  previewCampaign,
  searchDevices,
  useCreateCampaign,
  useFirmwareChoices,
  useGroupChoices,
  useTagChoices,
} from './use-campaigns';

export const INITIAL_VALUES: Partial<UpgradeFormValues> = {
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

export type DeviceOption = { value: string; label: string };
const deviceOption = (d: TDevice): DeviceOption => ({ value: d.id, label: `${d.sn} · ${d.name}` });

/**
 * Devices for the target: searched by SN among the firmware's series (a search waits until the
 * user stops typing); the chosen ones keep their labels when a new search no longer lists them.
 */
function useDeviceChoice(enabled: boolean, series: TDevice['series'] | undefined) {
  const [deviceSearch, setDeviceSearch] = useState('');
  const searchTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(searchTimer.current), []);
  const results = useQuery({
    queryKey: ['devices', 'campaign-choice', deviceSearch, series ?? null],
    queryFn: () => searchDevices(deviceSearch, series),
    enabled,
    placeholderData: keepPreviousData,
  });
  const [chosen, setChosen] = useState<DeviceOption[]>([]);
  const options = useMemo(() => {
    const found = (results.data ?? []).map(deviceOption);
    const seen = new Set(found.map((o) => o.value));
    return [...chosen.filter((o) => !seen.has(o.value)), ...found];
  }, [results.data, chosen]);
  return {
    options,
    loading: results.isFetching,
    search: (text: string) => {
      clearTimeout(searchTimer.current);
      searchTimer.current = setTimeout(() => setDeviceSearch(text), SEARCH_DELAY_MS);
    },
    choose: setChosen,
    reset: () => {
      setChosen([]);
      setDeviceSearch('');
    },
  };
}

/**
 * The state of the upgrade form: the watched fields, the firmware and group choices, the device
 * search, the server's preview of the target (once the fields stand still) and the submission,
 * whose 400 objections go onto the fields they name.
 */
export function useCampaignForm(
  open: boolean,
  onClose: () => void,
  onCreated: (campaign: TCampaign) => void,
) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<UpgradeFormValues>();
  const create = useCreateCampaign();
  const firmware = useFirmwareChoices(open);
  const groups = useGroupChoices(open);
  const tagChoices = useTagChoices(open);
  const [submitError, setSubmitError] = useState<string | null>(null);

  const firmwareId = Form.useWatch('firmwareId', form);
  const targetKind = Form.useWatch('targetKind', form) ?? 'devices';
  const deviceIds = Form.useWatch('deviceIds', form);
  const groupId = Form.useWatch('groupId', form);
  const tags = Form.useWatch('tags', form);
  const versionFrom = Form.useWatch('versionFrom', form);
  const versionTo = Form.useWatch('versionTo', form);
  const onlineOnly = Form.useWatch('onlineOnly', form);
  const wavePreset = Form.useWatch('wavePreset', form) ?? 'all';
  const windowOn = Form.useWatch('windowOn', form) ?? false;

  const chosenFirmware = firmware.data?.find((f) => f.id === firmwareId);
  const series = chosenFirmware?.series;
  const devices = useDeviceChoice(open && targetKind === 'devices', series);

  const versionsReadable = [versionFrom, versionTo].every(
    (v) => !v?.trim() || FIRMWARE_VERSION_PATTERN.test(v.trim()),
  );
  const target = targetOf(
    { targetKind, deviceIds, groupId, tags, versionFrom, versionTo, onlineOnly },
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
    devices.reset();
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
      devices.choose([]);
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

  /** A name the user has not typed follows the chosen firmware. */
  const onValuesChange = (changed: Partial<UpgradeFormValues>) => {
    if ('firmwareId' in changed && !form.isFieldTouched('name')) {
      const chosen = firmware.data?.find((f) => f.id === changed.firmwareId);
      if (chosen)
        form.setFieldValue(
          'name',
          t('campaign.defaultName', { series: chosen.series, version: chosen.version }),
        );
    }
  };

  const canStart =
    previewBody !== null &&
    preview.isSuccess &&
    !preview.isPlaceholderData &&
    preview.data.total > 0;

  return {
    form,
    firmware,
    groups,
    tagChoices,
    devices,
    series,
    targetKind,
    wavePreset,
    windowOn,
    preview: { pending: previewBody === null, query: preview },
    creating: create.isPending,
    submitError,
    canStart,
    close,
    submit,
    onValuesChange,
  };
}

export type CampaignFormState = ReturnType<typeof useCampaignForm>;
