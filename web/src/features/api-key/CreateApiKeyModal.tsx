import {
  API_KEY_LIFETIME_DAYS,
  API_KEY_MAX_DAYS,
  ZApiKeyCreate,
  type TApiKeyCreated,
} from '@blrms/contracts';
import { Alert, DatePicker, Form, Input, Modal, Select, Typography, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../shared/CopyButton';
import { zodRules } from '../../shared/entity/zod-rules';
import { submitForm, type FieldName } from '../../shared/field-errors';
import { useUserPermission } from '../../shared/permission/use-user-permission';
import { apiKeyApi } from './api-key-api';

type Lifetime = (typeof API_KEY_LIFETIME_DAYS)[number] | 'custom';

type Values = {
  name: string;
  lifetime: Lifetime;
  customDate?: Dayjs;
  permissions: string[];
};

/** Makes a key from a subset of the user's own codes, then shows it once. */
export function CreateApiKeyModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [saving, setSaving] = useState(false);
  const [created, setCreated] = useState<TApiKeyCreated | null>(null);
  const lifetime = Form.useWatch('lifetime', form);
  const { data: permission } = useUserPermission();

  const options = useMemo(() => {
    const seen = new Map<string, string>();
    for (const entry of permission?.auth ?? []) {
      if (!seen.has(entry.action)) seen.set(entry.action, entry.describe);
    }
    return [...seen].map(([code, describe]) => ({ value: code, label: `${describe} (${code})` }));
  }, [permission]);

  const close = () => {
    form.resetFields();
    setCreated(null);
    onClose();
  };

  const expireTime = (values: Values): string => {
    if (values.lifetime === 'custom')
      return (values.customDate ?? dayjs()).endOf('day').toISOString();
    return dayjs().add(values.lifetime, 'day').toISOString();
  };

  const fieldOf = (path: string[]): FieldName | null => {
    if (path[0] === 'expireTime') return [lifetime === 'custom' ? 'customDate' : 'lifetime'];
    if (path[0] === 'name' || path[0] === 'permissions') return [path[0]];
    return null;
  };

  const submit = async () => {
    const values = await form.validateFields();
    setSaving(true);
    try {
      await submitForm(
        form,
        async () => {
          const result = await apiKeyApi.create({
            name: values.name,
            expireTime: expireTime(values),
            permissions: values.permissions,
          });
          setCreated(result);
          onCreated();
        },
        fieldOf,
      );
    } catch {
      // Reported by the HTTP client.
    } finally {
      setSaving(false);
    }
  };

  if (created) {
    return (
      <Modal
        open={open}
        title={t('apiKey.createdTitle')}
        onOk={close}
        onCancel={close}
        okText={t('apiKey.done')}
        cancelButtonProps={{ style: { display: 'none' } }}
        maskClosable={false}
      >
        <Alert
          type="warning"
          showIcon
          message={t('apiKey.showOnce')}
          style={{ marginBottom: 12 }}
        />
        <Typography.Paragraph>
          <Typography.Text code data-testid="api-key-secret" style={{ wordBreak: 'break-all' }}>
            {created.key}
          </Typography.Text>
          <CopyButton text={created.key} testId="api-key-copy" />
        </Typography.Paragraph>
        <Typography.Paragraph type="secondary">{t('apiKey.usage')}</Typography.Paragraph>
        <Typography.Paragraph>
          <Typography.Text
            code
          >{`curl -H 'X-Api-Key: ${created.key}' ${window.location.origin}/api/sys/permission/getUserPermissionByToken`}</Typography.Text>
        </Typography.Paragraph>
      </Modal>
    );
  }

  return (
    <Modal
      open={open}
      title={t('apiKey.create')}
      onOk={() => void submit()}
      onCancel={close}
      confirmLoading={saving}
      okButtonProps={{ 'data-testid': 'api-key-submit' } as ButtonProps}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={{ lifetime: 90, permissions: [] }}>
        <Form.Item name="name" label={t('apiKey.name')} rules={zodRules(ZApiKeyCreate, 'name')}>
          <Input data-testid="api-key-name" maxLength={64} />
        </Form.Item>
        <Form.Item name="lifetime" label={t('apiKey.expiry')} rules={[{ required: true }]}>
          <Select
            data-testid="api-key-lifetime"
            options={[
              ...API_KEY_LIFETIME_DAYS.map((days) => ({
                value: days,
                label: t('apiKey.days', { count: days }),
              })),
              { value: 'custom', label: t('apiKey.customDate') },
            ]}
          />
        </Form.Item>
        {lifetime === 'custom' && (
          <Form.Item name="customDate" label={t('apiKey.expireDate')} rules={[{ required: true }]}>
            <DatePicker
              data-testid="api-key-date"
              disabledDate={(d) =>
                d.isBefore(dayjs(), 'day') || d.isAfter(dayjs().add(API_KEY_MAX_DAYS - 1, 'day'))
              }
            />
          </Form.Item>
        )}
        <Form.Item
          name="permissions"
          label={t('apiKey.permissions')}
          extra={t('apiKey.permissionsHint')}
          rules={[{ required: true, type: 'array', min: 1 }]}
        >
          <Select
            mode="multiple"
            data-testid="api-key-permissions"
            options={options}
            optionFilterProp="label"
            allowClear
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
