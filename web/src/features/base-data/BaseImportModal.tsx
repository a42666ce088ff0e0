import { InboxOutlined } from '@ant-design/icons';
import {
  BASE_IMPORT_MAX_BYTES,
  BASE_IMPORT_ROWS_MAX,
  type TBaseImportResult,
  type TBaseImportRowError,
} from '@blrms/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Modal, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_OF, KEYS_OF, type BaseEntity } from './use-base-data';

/**
 * Import of goods, locations or vendors: the file is previewed first (nothing written), then
 * imported; the good rows are kept and every bad row is listed with its column and rule.
 */
export function BaseImportModal({
  entity,
  entityName,
  onClose,
}: {
  entity: BaseEntity;
  entityName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<TBaseImportResult | null>(null);
  const run = useMutation({
    mutationFn: ({ chosen, dryRun }: { chosen: File; dryRun: boolean }) =>
      API_OF[entity].import(chosen, dryRun),
    onSuccess: async ({ result: answer, message: text }) => {
      setResult(answer);
      if (answer.dryRun) return;
      void message.success(text);
      await Promise.all(
        KEYS_OF[entity].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
      );
    },
  });

  const choose = (chosen: File) => {
    setFile(chosen);
    run.mutate({ chosen, dryRun: true });
  };

  return (
    <Modal
      open
      width={760}
      title={t('baseData.importModal.title', { entity: entityName })}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Space wrap style={{ justifyContent: 'flex-end' }}>
          {result && (
            <Button
              onClick={() => {
                setFile(null);
                setResult(null);
              }}
            >
              {t('baseData.importModal.again')}
            </Button>
          )}
          {result?.dryRun && file && (
            <Button
              type="primary"
              loading={run.isPending}
              disabled={result.valid - result.existing === 0}
              onClick={() => run.mutate({ chosen: file, dryRun: false })}
              data-testid="base-import-run"
            >
              {t('baseData.importModal.run')}
            </Button>
          )}
        </Space>
      }
      data-testid="base-import-modal"
    >
      <Typography.Paragraph type="secondary">
        {t(`baseData.importModal.help_${entity}`)}
      </Typography.Paragraph>
      {!result && (
        <Upload.Dragger
          accept=".xlsx,.csv"
          multiple={false}
          showUploadList={false}
          disabled={run.isPending}
          beforeUpload={(chosen) => {
            choose(chosen);
            return false;
          }}
          data-testid="base-import-file"
        >
          <p className="ant-upload-drag-icon">
            <InboxOutlined />
          </p>
          <p className="ant-upload-text">{t('baseData.importModal.choose')}</p>
          <p className="ant-upload-hint">
            {t('baseData.importModal.limits', {
              mb: BASE_IMPORT_MAX_BYTES / 1024 / 1024,
              rows: BASE_IMPORT_ROWS_MAX,
            })}
          </p>
        </Upload.Dragger>
      )}
      {result && (
        <Space direction="vertical" style={{ width: '100%' }} data-testid="base-import-result">
          <Alert
            type={result.invalid > 0 ? 'warning' : 'success'}
            showIcon
            message={
              result.dryRun
                ? t('baseData.importModal.summary', result)
                : t('baseData.importModal.imported', result)
            }
            description={result.dryRun ? undefined : t('baseData.importModal.summary', result)}
          />
          {result.errors.length > 0 && (
            <Table<TBaseImportRowError>
              rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
              size="small"
              pagination={{ pageSize: 10, showSizeChanger: false }}
              dataSource={result.errors}
              scroll={{ x: 480 }}
              columns={[
                { title: t('baseData.importModal.row'), dataIndex: 'row', width: 64 },
                { title: t('baseData.importModal.column'), dataIndex: 'field', width: 120 },
                { title: t('baseData.importModal.problem'), dataIndex: 'message' },
              ]}
              data-testid="base-import-errors"
            />
          )}
        </Space>
      )}
    </Modal>
  );
}
