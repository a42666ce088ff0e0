import { InboxOutlined } from '@ant-design/icons';
import {
  DICT_IMPORT_MAX_BYTES,
  DICT_IMPORT_ROWS_MAX,
  type TDictImportResult,
  type TDictImportRowError,
} from '@blrms/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Modal, Table, Typography, Upload } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApiResult } from '../../api/client';
import { DICT_SELECT_KEY, DICTS_KEY, dictApi } from './use-dicts';

/**
 * Uploads an XLSX of dictionaries; the server writes all of it or nothing, and lists every bad row
 * with its column and rule.
 */
export function DictImportModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const run = useMutation({
    mutationFn: (file: File) => dictApi.import(file),
    onSuccess: async ({ result, message: text }: ApiResult<TDictImportResult>) => {
      if (!result.applied) return;
      void message.success(text);
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: [DICTS_KEY] }),
        queryClient.invalidateQueries({ queryKey: [DICT_SELECT_KEY] }),
      ]);
      onClose();
    },
  });
  const errors = run.data && !run.data.result.applied ? run.data.result.errors : null;

  return (
    <Modal
      open
      width={720}
      title={t('systemDict.importTitle')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      data-testid="dict-import-modal"
    >
      <Typography.Paragraph type="secondary">{t('systemDict.importHelp')}</Typography.Paragraph>
      <Upload.Dragger
        accept=".xlsx"
        multiple={false}
        showUploadList={false}
        disabled={run.isPending}
        beforeUpload={(file) => {
          run.mutate(file);
          return false;
        }}
        data-testid="dict-import-file"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{t('systemDict.importChoose')}</p>
        <p className="ant-upload-hint">
          {t('systemDict.importLimits', {
            mb: DICT_IMPORT_MAX_BYTES / 1024 / 1024,
            rows: DICT_IMPORT_ROWS_MAX,
          })}
        </p>
      </Upload.Dragger>
      {errors && (
        <div className="dict-import__errors" data-testid="dict-import-errors">
          <Alert type="error" showIcon message={t('systemDict.importErrors')} />
          <Table<TDictImportRowError>
            rowKey={(e) => `${e.row}-${e.field}-${e.message}`}
            size="small"
            pagination={{ pageSize: 10, showSizeChanger: false }}
            dataSource={errors}
            columns={[
              { title: t('systemDict.row'), dataIndex: 'row', width: 70 },
              { title: t('systemDict.field'), dataIndex: 'field', width: 140 },
              { title: t('systemDict.problem'), dataIndex: 'message' },
            ]}
          />
        </div>
      )}
    </Modal>
  );
}
