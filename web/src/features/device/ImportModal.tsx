import { DownloadOutlined, InboxOutlined } from '@ant-design/icons';
import type { TDeviceImportResult, TImportRowError } from '@blrms/contracts';
import { IMPORT_COLUMNS, IMPORT_FILE_MAX_BYTES, IMPORT_ROWS_MAX } from '@blrms/contracts';
import type { TableColumnsType } from 'antd';
import {
  Alert,
  App,
  Button,
  Col,
  Form,
  Modal,
  Progress,
  Result,
  Row,
  Select,
  Space,
  Statistic,
  Table,
  Tabs,
  Tag,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../shared/format';
import { importTemplate, isImportFile } from './import-file';
import { useImportDevices, useTokenOptions } from './use-devices';

type Phase =
  | { kind: 'choose' }
  | { kind: 'sending'; dryRun: boolean; uploaded: number }
  | { kind: 'previewed'; result: TDeviceImportResult }
  | { kind: 'imported'; result: TDeviceImportResult };

type PreviewRow = TDeviceImportResult['preview'][number];

const MAX_MB = IMPORT_FILE_MAX_BYTES / 1024 / 1024;

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

/**
 * Device import: choose the token the devices connect with and a CSV or XLSX file, preview it
 * (the server checks every row and writes nothing), then import. Valid rows are imported and
 * invalid rows are skipped; both steps list the invalid rows with the reason.
 */
export function ImportModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const tokens = useTokenOptions();
  const send = useImportDevices();
  const [tokenId, setTokenId] = useState<string | undefined>();
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'choose' });
  const [missing, setMissing] = useState<{ token?: boolean; file?: boolean }>({});

  const fieldLabel = (field: string) =>
    IMPORT_COLUMNS.some((c) => c === field)
      ? t(`device.import.columns.${field as (typeof IMPORT_COLUMNS)[number]}`)
      : t('device.import.wholeRow');

  const close = () => {
    if (phase.kind === 'sending') return;
    setPhase({ kind: 'choose' });
    setFile(null);
    setMissing({});
    onClose();
  };

  const run = async (dryRun: boolean) => {
    if (!tokenId || !file) {
      setMissing({ token: !tokenId, file: !file });
      return;
    }
    setPhase({ kind: 'sending', dryRun, uploaded: 0 });
    try {
      const result = await send.mutateAsync({
        file,
        tokenId,
        dryRun,
        onProgress: (uploaded) => setPhase({ kind: 'sending', dryRun, uploaded }),
      });
      setPhase({ kind: dryRun ? 'previewed' : 'imported', result });
      if (!dryRun) void message.success(t('device.import.done', { count: result.imported }));
    } catch {
      // Reported by the HTTP client; back to the choice so the user can try again.
      setPhase({ kind: 'choose' });
    }
  };

  const errorColumns: TableColumnsType<TImportRowError> = [
    { title: t('device.import.row'), dataIndex: 'row', width: 80 },
    {
      title: t('device.import.field'),
      dataIndex: 'field',
      width: 120,
      render: (field: string) => fieldLabel(field),
    },
    { title: t('device.import.reason'), dataIndex: 'message' },
  ];

  const errorsByRow = (result: TDeviceImportResult) => {
    const byRow = new Map<number, TImportRowError[]>();
    result.errors.forEach((e) => byRow.set(e.row, [...(byRow.get(e.row) ?? []), e]));
    return byRow;
  };

  const previewColumns = (result: TDeviceImportResult): TableColumnsType<PreviewRow> => {
    const byRow = errorsByRow(result);
    return [
      { title: t('device.import.row'), dataIndex: 'row', width: 64, fixed: 'left' },
      {
        title: t('device.import.check'),
        key: 'check',
        width: 90,
        render: (_, row) =>
          byRow.has(row.row) ? (
            <Tag color="error">{t('device.import.invalid')}</Tag>
          ) : (
            <Tag color="success">{t('device.import.valid')}</Tag>
          ),
      },
      ...IMPORT_COLUMNS.map((column) => ({
        title: t(`device.import.columns.${column}`),
        dataIndex: column,
        width: column === 'sn' || column === 'name' ? 160 : 110,
        ellipsis: true,
        render: (value: string, row: PreviewRow) => {
          const problem = byRow.get(row.row)?.find((e) => e.field === column);
          return problem ? (
            <Typography.Text type="danger" title={problem.message}>
              {value || '—'}
            </Typography.Text>
          ) : (
            value
          );
        },
      })),
    ];
  };

  const summary = (result: TDeviceImportResult) => (
    <Row gutter={16} style={{ marginBottom: 12 }}>
      <Col span={8}>
        <Statistic
          title={t('device.import.total')}
          value={result.total}
          formatter={(v) => formatNumber(Number(v))}
          data-testid="import-total"
        />
      </Col>
      <Col span={8}>
        <Statistic
          title={t('device.import.validRows')}
          value={result.valid}
          valueStyle={{ color: '#52c41a' }}
          formatter={(v) => formatNumber(Number(v))}
          data-testid="import-valid"
        />
      </Col>
      <Col span={8}>
        <Statistic
          title={t('device.import.invalidRows')}
          value={result.invalid}
          valueStyle={result.invalid > 0 ? { color: '#ff4d4f' } : undefined}
          formatter={(v) => formatNumber(Number(v))}
          data-testid="import-invalid"
        />
      </Col>
    </Row>
  );

  const errorTable = (result: TDeviceImportResult) => (
    <>
      <Table<TImportRowError>
        rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
        size="small"
        columns={errorColumns}
        dataSource={result.errors}
        pagination={{ pageSize: 8, size: 'small', hideOnSinglePage: true }}
        data-testid="import-errors"
      />
      {result.errors.length < result.invalid && (
        <Typography.Text type="secondary">
          {t('device.import.errorsCut', { shown: formatNumber(result.errors.length) })}
        </Typography.Text>
      )}
    </>
  );

  const body = () => {
    switch (phase.kind) {
      case 'sending': {
        const uploading = phase.uploaded < 1;
        return (
          <div style={{ padding: '24px 0' }} data-testid="import-progress">
            <Progress
              percent={Math.round(phase.uploaded * 100)}
              status="active"
              showInfo={uploading}
            />
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
      case 'previewed': {
        const { result } = phase;
        return (
          <>
            <Alert
              type={result.invalid > 0 ? 'warning' : 'success'}
              showIcon
              message={t('device.import.previewSummary', {
                valid: formatNumber(result.valid),
                invalid: formatNumber(result.invalid),
              })}
              description={t('device.import.rule')}
              style={{ marginBottom: 12 }}
              data-testid="import-preview-summary"
            />
            {summary(result)}
            <Tabs
              items={[
                {
                  key: 'rows',
                  label: t('device.import.firstRows', { count: result.preview.length }),
                  children: (
                    <Table<PreviewRow>
                      rowKey="row"
                      size="small"
                      columns={previewColumns(result)}
                      dataSource={result.preview}
                      scroll={{ x: 1200 }}
                      pagination={{ pageSize: 8, size: 'small', hideOnSinglePage: true }}
                      data-testid="import-preview"
                    />
                  ),
                },
                {
                  key: 'errors',
                  label: t('device.import.skippedRows', { count: result.invalid }),
                  children: errorTable(result),
                },
              ]}
            />
          </>
        );
      }
      case 'imported': {
        const { result } = phase;
        return (
          <>
            <div data-testid="import-result">
              <Result
                status={result.invalid > 0 ? 'warning' : 'success'}
                title={t('device.import.done', { count: result.imported })}
                subTitle={
                  result.invalid > 0
                    ? t('device.import.doneSkipped', { count: result.invalid })
                    : undefined
                }
                style={{ padding: '16px 0' }}
              />
            </div>
            {result.invalid > 0 && errorTable(result)}
          </>
        );
      }
      default:
        return (
          <Form layout="vertical">
            <Alert
              type="info"
              showIcon
              message={t('device.import.rule')}
              description={t('device.import.format', {
                columns: IMPORT_COLUMNS.join(', '),
                maxMb: MAX_MB,
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
                onChange={(id) => {
                  setTokenId(id);
                  setMissing((m) => ({ ...m, token: false }));
                }}
                placeholder={t('device.tokenPlaceholder')}
                loading={tokens.isPending}
                showSearch
                optionFilterProp="label"
                options={(tokens.data ?? []).map((token) => ({
                  value: token.id,
                  label: token.name,
                }))}
                data-testid="import-token"
              />
            </Form.Item>
            <Form.Item
              label={t('device.import.file')}
              required
              validateStatus={missing.file ? 'error' : undefined}
              help={
                missing.file ? t('form.required', { field: t('device.import.file') }) : undefined
              }
            >
              <Upload.Dragger
                accept=".csv,.xlsx"
                maxCount={1}
                fileList={
                  file ? [{ uid: 'file', name: file.name, size: file.size, status: 'done' }] : []
                }
                beforeUpload={(chosen) => {
                  const problem = isImportFile(chosen);
                  if (problem === 'type') void message.error(t('device.import.wrongType'));
                  else if (problem === 'size')
                    void message.error(t('device.import.tooLarge', { maxMb: MAX_MB }));
                  else {
                    setFile(chosen);
                    setMissing((m) => ({ ...m, file: false }));
                  }
                  // The file is sent by the preview and import buttons, not on choice.
                  return Upload.LIST_IGNORE;
                }}
                onRemove={() => setFile(null)}
                data-testid="import-file"
              >
                <p className="ant-upload-drag-icon">
                  <InboxOutlined />
                </p>
                <p className="ant-upload-text">{t('device.import.drop')}</p>
                <p className="ant-upload-hint">{t('device.import.dropHint', { maxMb: MAX_MB })}</p>
              </Upload.Dragger>
            </Form.Item>
          </Form>
        );
    }
  };

  const footer = () => {
    switch (phase.kind) {
      case 'sending':
        return null;
      case 'previewed':
        return (
          <Space>
            <Button onClick={() => setPhase({ kind: 'choose' })}>{t('device.import.back')}</Button>
            <Button
              type="primary"
              disabled={phase.result.valid === 0}
              onClick={() => void run(false)}
              data-testid="import-confirm"
            >
              {t('device.import.importValid', { count: phase.result.valid })}
            </Button>
          </Space>
        );
      case 'imported':
        return (
          <Button type="primary" onClick={close} data-testid="import-close">
            {t('common.close')}
          </Button>
        );
      default:
        return (
          <Space>
            <Button onClick={close}>{t('common.cancel')}</Button>
            <Button
              type="primary"
              onClick={() => void run(true)}
              data-testid="import-preview-button"
            >
              {t('device.import.preview')}
            </Button>
          </Space>
        );
    }
  };

  return (
    <Modal
      open={open}
      title={t('device.import.title')}
      width={phase.kind === 'previewed' || phase.kind === 'imported' ? 960 : 600}
      onCancel={close}
      closable={phase.kind !== 'sending'}
      maskClosable={false}
      footer={footer()}
      destroyOnHidden
      data-testid="import-modal"
    >
      {body()}
    </Modal>
  );
}
