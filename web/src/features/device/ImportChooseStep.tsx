import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import { IMPORT_COLUMNS, IMPORT_ROWS_MAX } from '@blrms/contracts';
import { Alert, Button, Form, Select, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../shared/format';
import { importTemplate } from './import-file';
import type { DeviceImportState } from './use-device-import';
import { IMPORT_MAX_MB } from './use-device-import';

function downloadTemplate(): void {
  const url = URL.createObjectURL(importTemplate());
  const a = document.createElement('a');
  a.href = url;
  a.download = 'devices-template.csv';
  document.body.appendChild(a);
  a.click();
  a.remove();
  URL.revokeObjectURL(url);
}

/** The first step of an import: the rules, the template, the token and the file. */
export function ImportChooseStep({ state }: { state: DeviceImportState }) {
  const { t } = useTranslation();
  const { tokens, tokenId, file, missing } = state;
  return (
    <Form layout="vertical">
      <Alert
        type="info"
        showIcon
        message={t('device.import.rule')}
        description={t('device.import.format', {
          columns: IMPORT_COLUMNS.join(', '),
          maxMb: IMPORT_MAX_MB,
          maxRows: formatNumber(IMPORT_ROWS_MAX),
        })}
        action={
          <Button size="small" icon={<DownloadOutlined />} onClick={downloadTemplate}>
            {t('device.import.template')}
          </Button>
        }
        style={{ marginBottom: 16 }}
      />
      <Form.Item
        label={t('device.token')}
        required
        extra={t('device.import.tokenHint')}
        validateStatus={missing.token ? 'error' : undefined}
        help={missing.token ? t('form.required', { field: t('device.token') }) : undefined}
      >
        <Select
          value={tokenId}
          onChange={state.chooseToken}
          placeholder={t('device.tokenPlaceholder')}
          loading={tokens.isPending}
          showSearch
          optionFilterProp="label"
          options={(tokens.data ?? []).map((token) => ({ value: token.id, label: token.name }))}
          data-testid="import-token"
        />
      </Form.Item>
      <Form.Item
        label={t('device.import.file')}
        required
        validateStatus={missing.file ? 'error' : undefined}
        help={missing.file ? t('form.required', { field: t('device.import.file') }) : undefined}
      >
        <Upload.Dragger
          accept=".csv,.xlsx"
          maxCount={1}
          fileList={file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : []}
          beforeUpload={(chosen) => {
            state.chooseFile(chosen);
            // The file is sent by the preview and import buttons, not on choice.
            return Upload.LIST_IGNORE;
          }}
          onRemove={state.removeFile}
          data-testid="import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('device.import.drop')}</p>
          <p className="ant-upload-hint">{t('device.import.dropHint', { maxMb: IMPORT_MAX_MB })}</p>
        </Upload.Dragger>
      </Form.Item>
    </Form>
  );
}
