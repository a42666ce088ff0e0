import { ModalForm, ProFormDigit } from '@ant-design/pro-components';
import { App, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatBytes, MEGABYTE } from '../../shared/file-size';
import { useSaveFirmwareSettings } from './use-firmware';

/** The contract's bounds of the limit (ZFirmwareSettings), in MB: 1 MB to 16 GB. */
const MAX_MB = 16 * 1024;

/** The platform's size limit on firmware files, for platform administrators. */
export function FirmwareSettingsModal({
  open,
  maxBytes,
  onClose,
}: {
  open: boolean;
  maxBytes: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useSaveFirmwareSettings();

  return (
    <ModalForm<{ maxMb: number }>
      title={t('firmware.settingsTitle')}
      open={open}
      width={440}
      initialValues={{ maxMb: maxBytes === null ? undefined : Math.round(maxBytes / MEGABYTE) }}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      onFinish={async ({ maxMb }) => {
        try {
          await save.mutateAsync({ maxBytes: maxMb * MEGABYTE });
          void message.success(t('common.saved'));
          return true;
        } catch {
          // Reported by the HTTP client.
          return false;
        }
      }}
      data-testid="firmware-settings-form"
    >
      {maxBytes !== null && (
        <Typography.Paragraph type="secondary">
          {t('firmware.currentLimit', { limit: formatBytes(maxBytes) })}
        </Typography.Paragraph>
      )}
      <ProFormDigit
        name="maxMb"
        label={t('firmware.maxSize')}
        extra={t('firmware.maxSizeHint')}
        min={1}
        max={MAX_MB}
        fieldProps={{ precision: 0, addonAfter: 'MB', style: { width: '100%' } }}
        rules={[{ required: true, message: t('firmware.maxSizeRule', { max: MAX_MB }) }]}
        data-testid="firmware-max-mb"
      />
    </ModalForm>
  );
}
