import type { TDevice, TDeviceConfigState } from '@blrms/contracts';
import { changedPaths } from '@blrms/contracts';
import { App, Alert, Button, Drawer, Flex, Form, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportApiError } from '../../api/errors';
import { fieldErrorsOf } from '../../shared/field-errors';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import {
  configFields,
  editValuesOf,
  formValuesOf,
  isWholeConfig,
  knownConfigOf,
  patchOf,
} from './config-fields';
import { fullLabel } from './config-labels';
import { serverFieldName } from './config-problems';
import { ConfigForm } from './ConfigForm';
import { useDeviceConfig, useSetDeviceConfig } from './use-device-config';

type Values = Record<string, unknown>;

/**
 * Where an edit starts: what the platform knows of the device (reported, with the desired fields
 * on top), nothing else. While some of it is unknown the form edits a change (`patch`): empty
 * fields are not sent, and the device keeps its own values for them.
 */
function startOf(state: TDeviceConfigState) {
  const fields = configFields(state.series);
  const known = knownConfigOf(state);
  return {
    baseVersion: state.desired?.version ?? 0,
    whole: isWholeConfig(fields, known),
    values: editValuesOf(fields, known),
  };
}

/**
 * Edits a device's desired configuration. It saves the fields that have a value (secrets left
 * empty keep theirs) with the desired version it started from: when someone else saved meanwhile,
 * the server answers 409 and the editor reloads their version rather than overwrite it.
 */
export default function ConfigEditDrawer({
  device,
  state,
  onClose,
}: {
  device: TDevice;
  state: TDeviceConfigState;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const narrow = useNarrowScreen();
  const [form] = Form.useForm<Values>();
  const [start, setStart] = useState(() => startOf(state));
  const [notice, setNotice] = useState<{ type: 'warning' | 'error'; text: string } | null>(null);
  const save = useSetDeviceConfig();
  const current = useDeviceConfig(device.id);
  const fields = configFields(state.series);
  const watched = Form.useWatch([], { form, preserve: true }) as Values | undefined;
  const changes = watched ? changedPaths(start.values, formValuesOf(fields, watched, {})) : [];

  const reload = async () => {
    const fresh = await current.refetch();
    if (!fresh.data) return;
    const next = startOf(fresh.data);
    setStart(next);
    form.resetFields();
    form.setFields(Object.entries(next.values).map(([key, value]) => ({ name: [key], value })));
    setNotice({
      type: 'warning',
      text: t('deviceConfig.edit.conflict', { version: next.baseVersion }),
    });
  };

  const submit = async () => {
    setNotice(null);
    try {
      await form.validateFields();
    } catch {
      return; // Each field shows its own problem.
    }
    const config = patchOf(fields, form.getFieldsValue(true) as Values);
    try {
      const saved = await save.mutateAsync({
        deviceId: device.id,
        baseVersion: start.baseVersion,
        config,
      });
      void message.success(t('deviceConfig.edit.saved', { version: saved.desired?.version ?? 0 }));
      onClose();
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      if (e.status === 409) {
        await reload();
        return;
      }
      if (e.status === 400) {
        const { fields: onFields, rest } = fieldErrorsOf(e, (path) =>
          serverFieldName(fields, path),
        );
        form.setFields(onFields.map((f) => ({ name: [...f.name], errors: f.errors })));
        if (rest) setNotice({ type: 'error', text: rest.message });
        return;
      }
      reportApiError(e);
    }
  };

  return (
    <Drawer
      open
      title={t('deviceConfig.edit.title', { name: device.name, series: device.series })}
      width={narrow ? '100%' : 760}
      onClose={onClose}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center" gap={8} wrap>
          <Typography.Text type="secondary" data-testid="config-edit-changes">
            {changes.length === 0
              ? t('deviceConfig.edit.noChanges')
              : t('deviceConfig.edit.changes', {
                  count: changes.length,
                  fields: changes.map((p) => fullLabel(t, fields, p)).join(', '),
                })}
          </Typography.Text>
          <Flex gap={8}>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              loading={save.isPending}
              disabled={changes.length === 0}
              onClick={() => void submit()}
              data-testid="config-save"
            >
              {t('deviceConfig.edit.save')}
            </Button>
          </Flex>
        </Flex>
      }
      data-testid="config-edit-drawer"
    >
      <Flex vertical gap={12}>
        {(start.baseVersion > 0 || state.reported?.config) && (
          <Typography.Text type="secondary">
            {start.baseVersion > 0
              ? t('deviceConfig.edit.fromDesired', { version: start.baseVersion })
              : t('deviceConfig.edit.fromReported')}
          </Typography.Text>
        )}
        {!start.whole && (
          <Alert
            type="info"
            showIcon
            message={t('deviceConfig.edit.partlyUnknown')}
            data-testid="config-edit-unknown"
          />
        )}
        {notice && (
          <Alert
            type={notice.type}
            showIcon
            message={notice.text}
            data-testid="config-edit-notice"
          />
        )}
        <ConfigForm
          series={state.series}
          form={form}
          mode={start.whole ? 'full' : 'patch'}
          initialValues={start.values}
        />
      </Flex>
    </Drawer>
  );
}
