import { Button, Modal, Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ImportChooseStep } from './ImportChooseStep';
import { ImportDone, ImportPreview } from './ImportResults';
import type { DeviceImportState, ImportPhase } from './use-device-import';
import { useDeviceImport } from './use-device-import';

/** The upload's progress, then what the server is doing with the file. */
function ImportProgress({ phase }: { phase: Extract<ImportPhase, { kind: 'sending' }> }) {
  const { t } = useTranslation();
  const uploading = phase.uploaded < 1;
  return (
    <div style={{ padding: '24px 0' }} data-testid="import-progress">
      <Progress percent={Math.round(phase.uploaded * 100)} status="active" showInfo={uploading} />
      <Typography.Text type="secondary">
        {uploading
          ? t('device.import.uploading', { percent: Math.round(phase.uploaded * 100) })
          : phase.dryRun
            ? t('device.import.checking')
            : t('device.import.writing')}
      </Typography.Text>
    </div>
  );
}

function ImportFooter({ state }: { state: DeviceImportState }) {
  const { t } = useTranslation();
  const { phase } = state;
  switch (phase.kind) {
    case 'sending':
      return null;
    case 'previewed':
      return (
        <Space>
          <Button onClick={state.back}>{t('device.import.back')}</Button>
          <Button
            type="primary"
            disabled={phase.result.valid === 0}
            onClick={() => void state.run(false)}
            data-testid="import-confirm"
          >
            {t('device.import.importValid', { count: phase.result.valid })}
          </Button>
        </Space>
      );
    case 'imported':
      return (
        <Button type="primary" onClick={state.close} data-testid="import-close">
          {t('common.close')}
        </Button>
      );
    default:
      return (
        <Space>
          <Button onClick={state.close}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            onClick={() => void state.run(true)}
            data-testid="import-preview-button"
          >
            {t('device.import.preview')}
          </Button>
        </Space>
      );
  }
}

/**
 * Device import: choose the token the devices connect with and a CSV or XLSX file, preview it
 * (the server checks every row and writes nothing), then import. Valid rows are imported and
 * invalid rows are skipped; both steps list the invalid rows with the reason.
 */
export function ImportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const state = useDeviceImport(onClose);
  const { phase } = state;
  return (
    <Modal
      open={open}
      title={t('device.import.title')}
      width={phase.kind === 'previewed' || phase.kind === 'imported' ? 960 : 600}
      onCancel={state.close}
      closable={phase.kind !== 'sending'}
      maskClosable={false}
      // No footer at all while sending: an empty one would still draw its bar.
      footer={phase.kind === 'sending' ? null : <ImportFooter state={state} />}
      destroyOnHidden
      data-testid="import-modal"
    >
      {phase.kind === 'sending' && <ImportProgress phase={phase} />}
      {phase.kind === 'previewed' && <ImportPreview result={phase.result} />}
      {phase.kind === 'imported' && <ImportDone result={phase.result} />}
      {phase.kind === 'choose' && <ImportChooseStep state={state} />}
    </Modal>
  );
}
