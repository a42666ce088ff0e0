import { InboxOutlined } from '@ant-design/icons';
import type { TOssFileStorage } from '@blrms/contracts';
import type { UploadFile } from 'antd';
import { Alert, App, Button, Form, Modal, Progress, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportApiError } from '../../api/errors';
import { formatBytes } from '../../shared/file-size';
import { useUploadOssFile } from './use-oss-files';

type Values = { file: UploadFile[] };

/**
 * Upload of one file. The bar follows the bytes sent; after the last byte the server still
 * stores the file. A file over the per-file limit or the company's quota is refused here when the
 * sizes say so, and by the server in any case (413, shown on the field, which says which limit).
 */
export function OssFileUploadModal({
  open,
  storage,
  onClose,
}: {
  open: boolean;
  storage: TOssFileStorage | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const send = useUploadOssFile();
  const [sent, setSent] = useState<number | null>(null);
  const [otherError, setOtherError] = useState<string | null>(null);
  const sending = sent !== null;
  const room = storage && storage.limit !== null ? Math.max(0, storage.limit - storage.used) : null;

  const close = () => {
    if (sending) return;
    form.resetFields();
    setOtherError(null);
    onClose();
  };

  const submit = async () => {
    setOtherError(null);
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    const file = values.file[0]?.originFileObj;
    if (!file) return;
    setSent(0);
    try {
      const stored = await send.mutateAsync({ file, onProgress: setSent });
      void message.success(t('ossFile.uploaded', { name: stored.name }));
      form.resetFields();
      onClose();
    } catch (e) {
      if (!(e instanceof ApiError)) return;
      if (e.status === 413 || e.status === 400) {
        // The server's rule, without the field name it starts with.
        const text = e.fields[0]?.message ?? e.message;
        form.setFields([{ name: 'file', errors: [text] }]);
        return;
      }
      if (e.status >= 500 || e.status <= 0) {
        reportApiError(e);
        return;
      }
      setOtherError(e.message);
    } finally {
      setSent(null);
    }
  };

  const percent = Math.round((sent ?? 0) * 100);
  const limit = storage ? formatBytes(storage.fileMaxBytes) : null;

  return (
    <Modal
      open={open}
      title={t('ossFile.upload')}
      width={520}
      onCancel={close}
      closable={!sending}
      maskClosable={false}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close} disabled={sending}>
            {t('common.cancel')}
          </Button>
          <Button
            type="primary"
            loading={sending}
            onClick={() => void submit()}
            data-testid="oss-upload-submit"
          >
            {t('ossFile.upload')}
          </Button>
        </Space>
      }
      data-testid="oss-upload-modal"
    >
      <Form<Values> form={form} layout="vertical" disabled={sending}>
        <Form.Item
          name="file"
          label={t('ossFile.file')}
          valuePropName="fileList"
          getValueFromEvent={(event: { fileList: UploadFile[] }) => event.fileList.slice(-1)}
          rules={[
            {
              validator: (_, files: UploadFile[] | undefined) => {
                const size = files?.[0]?.size ?? 0;
                if (!files?.[0]) {
                  return Promise.reject(
                    new Error(t('form.required', { field: t('ossFile.file') })),
                  );
                }
                if (storage && size > storage.fileMaxBytes) {
                  return Promise.reject(new Error(t('ossFile.tooLarge', { limit })));
                }
                if (room !== null && size > room) {
                  return Promise.reject(
                    new Error(t('ossFile.noRoom', { room: formatBytes(room) })),
                  );
                }
                return Promise.resolve();
              },
            },
          ]}
        >
          <Upload.Dragger
            maxCount={1}
            // The file goes when the user presses upload, not on choice.
            beforeUpload={() => false}
            data-testid="oss-upload-file"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('ossFile.drop')}</p>
            {limit && (
              <p className="ant-upload-hint">
                {room === null
                  ? t('ossFile.dropHintUnlimited', { limit })
                  : t('ossFile.dropHint', { limit, room: formatBytes(room) })}
              </p>
            )}
          </Upload.Dragger>
        </Form.Item>
      </Form>
      {sending && (
        <div data-testid="oss-upload-progress">
          <Progress percent={percent} status="active" />
          <Typography.Text type="secondary">
            {sent < 1 ? t('ossFile.uploading', { percent }) : t('ossFile.storing')}
          </Typography.Text>
        </div>
      )}
      {otherError && (
        <Alert type="error" showIcon message={otherError} data-testid="oss-upload-error" />
      )}
    </Modal>
  );
}
