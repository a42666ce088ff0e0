import { InboxOutlined } from '@ant-design/icons';
import type { TDeviceSeries } from '@blrms/contracts';
import { DEVICE_SERIES, FIRMWARE_VERSION_PATTERN, ZFirmwareUploadFields } from '@blrms/contracts';
import type { UploadFile } from 'antd';
import {
  Alert,
  App,
  Button,
  Col,
  Form,
  Input,
  Modal,
  Progress,
  Row,
  Select,
  Space,
  Typography,
  Upload,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, reportApiError } from '../../api/errors';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { zodRules } from '../../shared/entity/zod-rules';
import { fieldErrorsOf } from '../../shared/field-errors';
import { formatBytes } from '../../shared/file-size';
import { useDictOptions } from '../../shared/use-dict-items';
import { useUploadFirmware } from './use-firmware';

type Values = {
  series: TDeviceSeries;
  version: string;
  releaseNotes?: string;
  file: UploadFile[];
};

const NOTES_MAX = 4000;
const FIELDS = new Set(['series', 'version', 'releaseNotes', 'file']);

/**
 * Upload of a firmware file with its series, version and release notes. The bar follows the
 * bytes sent; after the last byte the server still checks and stores the file. A file over the
 * limit (413), a version the library already has (409) or a refused field (400) is shown on the
 * field it concerns, and the form keeps what was typed.
 */
export function FirmwareUploadModal({
  open,
  maxBytes,
  onClose,
}: {
  open: boolean;
  /** The platform's limit when this user may read it; the server checks it in any case. */
  maxBytes: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const send = useUploadFirmware();
  // The series' labels and order from their dictionary; the values stay the contract's.
  const seriesOptions = useDictOptions(
    'device_series',
    DEVICE_SERIES,
    DEVICE_SERIES.map((s) => ({ value: s, label: s })),
  );
  const [sent, setSent] = useState<number | null>(null);
  const [otherError, setOtherError] = useState<string | null>(null);
  const sending = sent !== null;

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
      const firmware = await send.mutateAsync({
        series: values.series,
        version: values.version.trim(),
        releaseNotes: values.releaseNotes?.trim() || undefined,
        file,
        onProgress: setSent,
      });
      void message.success(
        t('firmware.uploaded', { series: firmware.series, version: firmware.version }),
      );
      form.resetFields();
      onClose();
    } catch (e) {
      if (!(e instanceof ApiError)) return;
      if (![400, 409, 413].includes(e.status)) {
        reportApiError(e);
        return;
      }
      // The server names the field (`version: ... already exists`); a 413 is the file's, a 409
      // the version's, when it does not.
      const { fields, rest } = fieldErrorsOf(e, (path) =>
        path[0] && FIELDS.has(path[0]) ? [path[0]] : null,
      );
      const fallback = e.status === 413 ? 'file' : e.status === 409 ? 'version' : null;
      if (fields.length === 0 && fallback) {
        form.setFields([{ name: fallback, errors: [e.message] }]);
        return;
      }
      form.setFields(fields.map((f) => ({ name: f.name[0] as keyof Values, errors: f.errors })));
      setOtherError(rest?.message ?? null);
    } finally {
      setSent(null);
    }
  };

  const limit = maxBytes === null ? null : formatBytes(maxBytes);
  const percent = Math.round((sent ?? 0) * 100);

  return (
    <Modal
      open={open}
      title={t('firmware.upload')}
      width={560}
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
            data-testid="firmware-upload-submit"
          >
            {t('firmware.upload')}
          </Button>
        </Space>
      }
      data-testid="firmware-upload-modal"
    >
      <Form<Values> form={form} layout="vertical" disabled={sending}>
        <Row gutter={12}>
          <Col xs={24} sm={10}>
            <Form.Item
              name="series"
              label={t('firmware.series')}
              rules={zodRules(
                ZFirmwareUploadFields,
                'series',
                fieldRuleMessages(t, t('firmware.series')),
              )}
            >
              <Select
                options={seriesOptions.map(({ value, label }) => ({ value, label }))}
                data-testid="firmware-series"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={14}>
            <Form.Item
              name="version"
              label={t('firmware.version')}
              rules={[
                {
                  required: true,
                  whitespace: true,
                  message: t('form.required', { field: t('firmware.version') }),
                },
                { pattern: FIRMWARE_VERSION_PATTERN, message: t('firmware.versionRule') },
              ]}
            >
              <Input
                placeholder={t('firmware.versionPlaceholder')}
                data-testid="firmware-version"
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="releaseNotes"
          label={t('firmware.releaseNotes')}
          rules={zodRules(
            ZFirmwareUploadFields,
            'releaseNotes',
            fieldRuleMessages(t, t('firmware.releaseNotes')),
          )}
        >
          <Input.TextArea
            rows={3}
            maxLength={NOTES_MAX}
            showCount
            placeholder={t('firmware.releaseNotesPlaceholder')}
            data-testid="firmware-notes"
          />
        </Form.Item>
        <Form.Item
          name="file"
          label={t('firmware.file')}
          valuePropName="fileList"
          getValueFromEvent={(event: { fileList: UploadFile[] }) => event.fileList.slice(-1)}
          rules={[
            {
              validator: (_, files: UploadFile[] | undefined) => {
                const file = files?.[0];
                if (!file) {
                  return Promise.reject(
                    new Error(t('form.required', { field: t('firmware.file') })),
                  );
                }
                if (maxBytes !== null && (file.size ?? 0) > maxBytes) {
                  return Promise.reject(new Error(t('firmware.tooLarge', { limit: limit ?? '' })));
                }
                return Promise.resolve();
              },
            },
          ]}
        >
          <Upload.Dragger
            maxCount={1}
            // The file goes with the form's fields when the user uploads, not on choice.
            beforeUpload={() => false}
            data-testid="firmware-file"
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('firmware.drop')}</p>
            <p className="ant-upload-hint">
              {limit ? t('firmware.dropHint', { limit }) : t('firmware.dropHintNoLimit')}
            </p>
          </Upload.Dragger>
        </Form.Item>
      </Form>
      {sending && (
        <div data-testid="firmware-upload-progress">
          <Progress percent={percent} status="active" />
          <Typography.Text type="secondary">
            {sent < 1 ? t('firmware.uploading', { percent }) : t('firmware.storing')}
          </Typography.Text>
        </div>
      )}
      {otherError && (
        <Alert type="error" showIcon message={otherError} data-testid="firmware-upload-error" />
      )}
    </Modal>
  );
}
