import { InboxOutlined } from '@ant-design/icons';
import {
  ONLINE_FORM_IMPORT_MAX_BYTES,
  ONLINE_FORM_IMPORT_ROWS_MAX,
  type TOnlineFormMeta,
  type TOnlineImportRowError,
  type TOnlineRecordImportResult,
} from '@blrms/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Progress, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabel, historyValue } from './form-fields';
import { RECORDS_KEY, recordApi } from './use-online-forms';

type Phase =
  | { kind: 'choose' }
  | { kind: 'sending'; dryRun: boolean; sent: number }
  | { kind: 'previewed'; result: TOnlineRecordImportResult }
  | { kind: 'imported'; result: TOnlineRecordImportResult };

/** The rows the server refused, by row and column. */
function RowErrors({ errors }: { errors: readonly TOnlineImportRowError[] }) {
  const { t } = useTranslation();
  if (errors.length === 0) return null;
  return (
    <Table<TOnlineImportRowError>
      rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
      size="small"
      pagination={{ pageSize: 10, showSizeChanger: false }}
      dataSource={errors}
      columns={[
        { title: t('onlineForm.import.row'), dataIndex: 'row', width: 70 },
        { title: t('onlineForm.import.column'), dataIndex: 'column', width: 160 },
        { title: t('onlineForm.import.problem'), dataIndex: 'message' },
      ]}
      data-testid="online-import-errors"
    />
  );
}

/**
 * Import of records from an XLSX or CSV sheet whose header row names the fields by label: the
 * preview checks every row and writes nothing, then the good rows are imported and the bad ones
 * listed with the reason.
 */
export function RecordImportModal({
  form,
  onClose,
}: {
  form: TOnlineFormMeta;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const yesNo = (on: boolean) => (on ? t('onlineForm.yes') : t('onlineForm.no'));

  const run = async (dryRun: boolean) => {
    if (!file) return;
    setPhase({ kind: 'sending', dryRun, sent: 0 });
    try {
      const result = await recordApi.import(form.code, file, dryRun, (sent) =>
        setPhase({ kind: 'sending', dryRun, sent }),
      );
      setPhase({ kind: dryRun ? 'previewed' : 'imported', result });
      if (!dryRun) {
        void message.success(t('onlineForm.import.done', { count: result.imported }));
        await queryClient.invalidateQueries({ queryKey: [RECORDS_KEY, form.code] });
      }
    } catch {
      // Reported by the HTTP client; the user may choose another file.
      setPhase({ kind: 'choose' });
    }
  };

  const footer = (() => {
    switch (phase.kind) {
      case 'sending':
        return null;
      case 'previewed':
        return (
          <Space>
            <Button onClick={() => setPhase({ kind: 'choose' })}>
              {t('onlineForm.import.back')}
            </Button>
            <Button
              type="primary"
              disabled={phase.result.valid === 0}
              onClick={() => void run(false)}
              data-testid="online-import-confirm"
            >
              {t('onlineForm.import.importValid', { count: phase.result.valid })}
            </Button>
          </Space>
        );
      case 'imported':
        return (
          <Button type="primary" onClick={onClose} data-testid="online-import-close">
            {t('common.close')}
          </Button>
        );
      case 'choose':
        return (
          <Space>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              disabled={!file}
              onClick={() => void run(true)}
              data-testid="online-import-preview"
            >
              {t('onlineForm.import.preview')}
            </Button>
          </Space>
        );
    }
  })();

  const previewColumns = form.fields.map((field) => ({
    title: fieldLabel(field, i18n.language),
    key: field.key,
    render: (_: unknown, row: TOnlineRecordImportResult['preview'][number]) =>
      historyValue(row.data[field.key] ?? null, yesNo),
  }));

  return (
    <Modal
      open
      title={t('onlineForm.import.title')}
      width={phase.kind === 'previewed' || phase.kind === 'imported' ? 960 : 600}
      onCancel={onClose}
      closable={phase.kind !== 'sending'}
      maskClosable={false}
      footer={footer}
      destroyOnHidden
      data-testid="online-import-modal"
    >
      {phase.kind === 'choose' && (
        <>
          <Typography.Paragraph type="secondary">
            {t('onlineForm.import.help', {
              columns: form.fields.map((f) => fieldLabel(f, i18n.language)).join(', '),
            })}
          </Typography.Paragraph>
          <Upload.Dragger
            accept=".xlsx,.csv"
            multiple={false}
            maxCount={1}
            fileList={file ? [{ uid: '1', name: file.name, status: 'done' }] : []}
            onRemove={() => setFile(null)}
            beforeUpload={(chosen) => {
              setFile(chosen);
              return false;
            }}
            data-testid="online-import-file"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('onlineForm.import.choose')}</p>
            <p className="ant-upload-hint">
              {t('onlineForm.import.limits', {
                mb: ONLINE_FORM_IMPORT_MAX_BYTES / 1024 / 1024,
                rows: ONLINE_FORM_IMPORT_ROWS_MAX,
              })}
            </p>
          </Upload.Dragger>
        </>
      )}
      {phase.kind === 'sending' && (
        <div style={{ padding: '24px 0' }}>
          <Progress percent={Math.round(phase.sent * 100)} status="active" />
          <Typography.Text type="secondary">
            {phase.dryRun ? t('onlineForm.import.checking') : t('onlineForm.import.writing')}
          </Typography.Text>
        </div>
      )}
      {phase.kind === 'previewed' && (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="online-import-result">
          <Alert
            type={phase.result.invalid > 0 ? 'warning' : 'success'}
            showIcon
            message={t('onlineForm.import.summary', {
              total: phase.result.total,
              valid: phase.result.valid,
              invalid: phase.result.invalid,
            })}
          />
          <Table
            rowKey="row"
            size="small"
            scroll={{ x: 'max-content' }}
            pagination={{ pageSize: 5, showSizeChanger: false }}
            dataSource={phase.result.preview}
            columns={[
              { title: t('onlineForm.import.row'), dataIndex: 'row', width: 70 },
              ...previewColumns,
            ]}
          />
          <RowErrors errors={phase.result.errors} />
        </Space>
      )}
      {phase.kind === 'imported' && (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="online-import-result">
          <Alert
            type={phase.result.invalid > 0 ? 'warning' : 'success'}
            showIcon
            message={t('onlineForm.import.importedSummary', {
              imported: phase.result.imported,
              invalid: phase.result.invalid,
            })}
          />
          <RowErrors errors={phase.result.errors} />
        </Space>
      )}
    </Modal>
  );
}
