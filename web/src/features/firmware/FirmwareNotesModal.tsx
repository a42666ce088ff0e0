import { ModalForm, ProFormTextArea } from '@ant-design/pro-components';
import { ZFirmwareEdit, type TFirmware } from '@blrms/contracts';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { zodRules } from '../../shared/entity/zod-rules';
import { useEditFirmware } from './use-firmware';

const NOTES_MAX = 4000;

/** Edits a firmware's release notes; the file, series and version never change. */
export function FirmwareNotesModal({
  firmware,
  onClose,
}: {
  firmware: TFirmware | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const edit = useEditFirmware();

  return (
    <ModalForm<{ releaseNotes?: string }>
      key={firmware?.id ?? 'none'}
      title={
        firmware
          ? t('firmware.editNotesTitle', { series: firmware.series, version: firmware.version })
          : ''
      }
      open={firmware !== null}
      width={560}
      initialValues={{ releaseNotes: firmware?.releaseNotes ?? '' }}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      onFinish={async ({ releaseNotes }) => {
        if (!firmware) return true;
        try {
          await edit.mutateAsync({ id: firmware.id, releaseNotes: releaseNotes?.trim() || null });
          void message.success(t('common.saved'));
          return true;
        } catch {
          // The HTTP client has shown the server's message; the form keeps what was typed.
          return false;
        }
      }}
      data-testid="firmware-notes-form"
    >
      <ProFormTextArea
        name="releaseNotes"
        label={t('firmware.releaseNotes')}
        placeholder={t('firmware.releaseNotesPlaceholder')}
        fieldProps={{ maxLength: NOTES_MAX, showCount: true, rows: 6 }}
        rules={zodRules(
          ZFirmwareEdit,
          'releaseNotes',
          fieldRuleMessages(t, t('firmware.releaseNotes')),
        )}
      />
    </ModalForm>
  );
}
