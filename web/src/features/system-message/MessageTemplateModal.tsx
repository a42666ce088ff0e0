import type { ButtonProps } from 'antd';
import {
  MESSAGE_CHANNELS,
  ZMessageTemplateInput,
  type TMessageChannel,
  type TMessageTemplate,
  type TMessageTemplatePreview,
} from '@blrms/contracts';
import { Alert, Button, Descriptions, Form, Input, Modal, Select, Switch, Typography } from 'antd';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEntityMutation, serverMessage } from '../../shared/entity/use-entity-mutation';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { zodRules } from '../../shared/entity/zod-rules';
import { showFieldErrors } from '../../shared/field-errors';
import { messageApi, TEMPLATES_KEY } from './message-api';

type Values = {
  code: string;
  name: string;
  channel: TMessageChannel;
  subject: string;
  subjectEn: string;
  content: string;
  contentEn: string;
  testData: string;
  enabled: boolean;
};

type LabelKey =
  | 'code'
  | 'codeHelp'
  | 'name'
  | 'channel'
  | 'subject'
  | 'subjectEn'
  | 'content'
  | 'contentEn'
  | 'testData'
  | 'testDataInvalid'
  | 'enabled'
  | 'previewTitle';

/** The bell's HTML (escaped by the server) as the text it shows. */
export function readableContent(content: string): string {
  return content
    .replace(/<br>/g, '\n')
    .replace(/<\/?p>/g, '')
    .replace(
      /&(lt|gt|quot|#39|amp);/g,
      (_, e: string) => ({ lt: '<', gt: '>', quot: '"', '#39': "'", amp: '&' })[e] ?? '',
    );
}

/** The test data as an object of variables, or null when the text is not one. */
function parseTestData(text: string): Record<string, string | number> | null {
  try {
    const value: unknown = JSON.parse(text || '{}');
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    return value as Record<string, string | number>;
  } catch {
    return null;
  }
}

/**
 * Adds, edits or customizes (`copy`: a platform template saved as the company's own) a template,
 * with a preview of both languages rendered by the server from the test data.
 */
export function MessageTemplateModal({
  template,
  copy,
  onClose,
}: {
  template: TMessageTemplate | null;
  copy: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [preview, setPreview] = useState<TMessageTemplatePreview | null>(null);
  const editing = template !== null && !copy;
  const label = (key: LabelKey): string => t(`messageCenter.${key}`);
  const rules = (field: keyof Values, key: LabelKey) =>
    zodRules(ZMessageTemplateInput, field, fieldRuleMessages(t, label(key)));

  const save = useEntityMutation({
    mutationFn: (values: Values) => {
      const body = { ...values, testData: parseTestData(values.testData) ?? {} };
      return editing
        ? messageApi.editTemplate({ ...body, id: template.id })
        : messageApi.addTemplate(body);
    },
    invalidates: [[TEMPLATES_KEY]],
    successMessage: serverMessage,
  });

  const render = useMutation({
    mutationFn: async () => {
      const values = await form.validateFields();
      return messageApi.preview({
        channel: values.channel,
        subject: values.subject ?? '',
        subjectEn: values.subjectEn ?? '',
        content: values.content,
        contentEn: values.contentEn,
        testData: parseTestData(values.testData) ?? {},
      });
    },
    onSuccess: (result) => setPreview(result.result),
    onError: (error) => showFieldErrors(form, error),
  });

  const title = copy
    ? t('messageCenter.customizeTitle', { code: template?.code })
    : editing
      ? t('messageCenter.edit')
      : t('messageCenter.add');
  const locked = copy || template?.builtIn === true;
  const channel = Form.useWatch('channel', form);

  return (
    <Modal
      open
      width={860}
      title={title}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'template-save' } as ButtonProps}
      footer={(origin) => (
        <>
          <Button
            onClick={() => render.mutate()}
            loading={render.isPending}
            data-testid="template-preview"
          >
            {t('messageCenter.preview')}
          </Button>
          {origin}
        </>
      )}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          template
            ? {
                ...template,
                testData: JSON.stringify(template.testData, null, 2),
              }
            : { channel: 'system', enabled: true, testData: '{}' }
        }
        onFinish={(values) =>
          save.mutate(values, {
            onSuccess: onClose,
            onError: (error) => showFieldErrors(form, error),
          })
        }
      >
        <Form.Item
          name="code"
          label={label('code')}
          extra={label('codeHelp')}
          rules={rules('code', 'code')}
        >
          <Input disabled={locked} data-testid="template-code" />
        </Form.Item>
        <Form.Item name="name" label={label('name')} rules={rules('name', 'name')}>
          <Input data-testid="template-name" />
        </Form.Item>
        <Form.Item name="channel" label={label('channel')} rules={[{ required: true }]}>
          <Select
            disabled={locked}
            data-testid="template-channel"
            options={MESSAGE_CHANNELS.map((c) => ({
              value: c,
              label: t(`messageCenter.channels.${c}`),
            }))}
          />
        </Form.Item>
        {channel !== 'sms' && (
          <>
            <Form.Item name="subject" label={label('subject')} rules={rules('subject', 'subject')}>
              <Input data-testid="template-subject" />
            </Form.Item>
            <Form.Item
              name="subjectEn"
              label={label('subjectEn')}
              rules={rules('subjectEn', 'subjectEn')}
            >
              <Input data-testid="template-subject-en" />
            </Form.Item>
          </>
        )}
        <Form.Item name="content" label={label('content')} rules={rules('content', 'content')}>
          <Input.TextArea rows={3} data-testid="template-content" />
        </Form.Item>
        <Form.Item
          name="contentEn"
          label={label('contentEn')}
          rules={rules('contentEn', 'contentEn')}
        >
          <Input.TextArea rows={3} data-testid="template-content-en" />
        </Form.Item>
        <Form.Item
          name="testData"
          label={label('testData')}
          extra={t('messageCenter.testDataHelp', { example: '{{deviceName}}' })}
          rules={[
            {
              validator: (_, value: string) =>
                parseTestData(value) === null
                  ? Promise.reject(new Error(`${label('testData')} ${label('testDataInvalid')}`))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input.TextArea rows={3} spellCheck={false} data-testid="template-test-data" />
        </Form.Item>
        <Form.Item name="enabled" label={label('enabled')} valuePropName="checked">
          <Switch data-testid="template-enabled" />
        </Form.Item>
      </Form>
      {preview && (
        <div data-testid="template-preview-result">
          <Typography.Title level={5}>{label('previewTitle')}</Typography.Title>
          {preview.missing.length > 0 && (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 8 }}
              message={t('messageCenter.missing', { names: preview.missing.join(', ') })}
            />
          )}
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="中文">
              <strong>{preview.subject}</strong>
              <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {readableContent(preview.content)}
              </div>
            </Descriptions.Item>
            <Descriptions.Item label="English">
              <strong>{preview.subjectEn}</strong>
              <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                {readableContent(preview.contentEn)}
              </div>
            </Descriptions.Item>
          </Descriptions>
        </div>
      )}
    </Modal>
  );
}
