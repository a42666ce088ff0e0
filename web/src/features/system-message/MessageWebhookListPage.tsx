import type { ButtonProps } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { ZWebhookInput, type TWebhook, type TWebhookWithSecret } from '@blrms/contracts';
import {
  App,
  Alert,
  Button,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../shared/CopyButton';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { zodRules } from '../../shared/entity/zod-rules';
import { showFieldErrors } from '../../shared/field-errors';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { MESSAGES_KEY, WEBHOOKS_KEY, messageApi, useWebhooks } from './message-api';

type Values = { name: string; url: string; enabled: boolean };

/** Webhook endpoints of the company: add (secret shown once), test, new secret, delete. */
export default function MessageWebhookListPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  const [editing, setEditing] = useState<TWebhook | null | undefined>(undefined);
  const [secret, setSecret] = useState<TWebhookWithSecret | null>(null);
  const canAdd = useHasAction('system:message:webhook:add');
  const canEdit = useHasAction('system:message:webhook:edit');
  const canDelete = useHasAction('system:message:webhook:delete');
  const canTest = useHasAction('system:message:webhook:test');
  const canNetwork = useHasAction('system:setting:webhook');

  const remove = useEntityMutation({
    mutationFn: (id: string) => messageApi.deleteWebhook(id),
    invalidates: [[WEBHOOKS_KEY]],
    successMessage: serverMessage,
  });
  const rotate = useEntityMutation({
    mutationFn: (id: string) => messageApi.rotateSecret(id),
    invalidates: [[WEBHOOKS_KEY]],
  });
  const test = useEntityMutation({
    mutationFn: (id: string) => messageApi.testWebhook(id),
    invalidates: [[MESSAGES_KEY]],
  });

  const runTest = async (id: string) => {
    const { result } = await test.mutateAsync(id);
    if (result.status === 'sent') void message.success(t('messageCenter.testSent'));
    else void message.error(t('messageCenter.testFailed', { error: result.lastError ?? '' }));
    void queryClient.invalidateQueries({ queryKey: [MESSAGES_KEY] });
  };

  const columns: ColumnsType<TWebhook> = [
    { title: t('messageCenter.webhookName'), dataIndex: 'name', width: 160 },
    {
      title: t('messageCenter.webhookUrl'),
      dataIndex: 'url',
      ellipsis: true,
      render: (url: string) => <Typography.Text copyable={{ text: url }}>{url}</Typography.Text>,
    },
    {
      title: t('messageCenter.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (on: boolean) =>
        on ? <Tag color="success">{t('common.enabled')}</Tag> : <Tag>{t('common.disabled')}</Tag>,
    },
    {
      title: t('messageCenter.secretHint'),
      dataIndex: 'secretHint',
      width: 120,
      render: (hint: string) => <Typography.Text code>{hint}</Typography.Text>,
    },
    {
      title: t('messageCenter.createTime'),
      dataIndex: 'createTime',
      width: 170,
      render: (time: string) => formatDateTime(time),
    },
    {
      title: t('messageCenter.actions'),
      key: 'actions',
      width: 260,
      render: (_, row) => (
        <Space size={0} wrap>
          {canTest && (
            <Button
              type="link"
              size="small"
              loading={test.isPending && test.variables === row.id}
              onClick={() => void runTest(row.id)}
              data-testid={`webhook-test-${row.name}`}
            >
              {t('messageCenter.test')}
            </Button>
          )}
          {canEdit && (
            <Button
              type="link"
              size="small"
              onClick={() => setEditing(row)}
              data-testid={`webhook-edit-${row.name}`}
            >
              {t('messageCenter.editShort')}
            </Button>
          )}
          {canEdit && (
            <Popconfirm
              title={t('messageCenter.rotateConfirm')}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              onConfirm={async () => setSecret((await rotate.mutateAsync(row.id)).result)}
            >
              <Button type="link" size="small" data-testid={`webhook-rotate-${row.name}`}>
                {t('messageCenter.rotate')}
              </Button>
            </Popconfirm>
          )}
          {canDelete && (
            <Popconfirm
              title={t('messageCenter.deleteWebhookConfirm', { name: row.name })}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              onConfirm={() => remove.mutateAsync(row.id)}
            >
              <Button type="link" size="small" danger data-testid={`webhook-delete-${row.name}`}>
                {t('messageCenter.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      data-testid="message-webhook-page"
      title={canNetwork ? <NetworkSwitch /> : null}
      extra={
        canAdd && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing(null)}
            data-testid="webhook-add"
          >
            {t('messageCenter.addWebhook')}
          </Button>
        )
      }
    >
      <Table<TWebhook>
        rowKey="id"
        size="middle"
        loading={webhooks.isFetching}
        dataSource={webhooks.data ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: 1000 }}
      />
      {editing !== undefined && (
        <WebhookModal
          webhook={editing}
          onClose={() => setEditing(undefined)}
          onCreated={(created) => setSecret(created)}
        />
      )}
      <Modal
        open={secret !== null}
        title={t('messageCenter.secretTitle')}
        onCancel={() => setSecret(null)}
        footer={
          <Button type="primary" onClick={() => setSecret(null)} data-testid="webhook-secret-close">
            {t('common.close')}
          </Button>
        }
        destroyOnHidden
      >
        <Alert
          type="warning"
          showIcon
          message={t('messageCenter.secretOnce')}
          style={{ marginBottom: 12 }}
        />
        <Space.Compact style={{ width: '100%' }}>
          <Input readOnly value={secret?.secret} data-testid="webhook-secret" />
          <CopyButton text={secret?.secret ?? ''} />
        </Space.Compact>
      </Modal>
    </Card>
  );
}

/** The platform's setting: whether webhooks may go to private networks (administrators only). */
function NetworkSwitch() {
  const { t } = useTranslation();
  const network = useQuery({ queryKey: [WEBHOOKS_KEY, 'network'], queryFn: messageApi.network });
  const save = useEntityMutation({
    mutationFn: (allow: boolean) => messageApi.setNetwork({ allowPrivateNetworks: allow }),
    invalidates: [[WEBHOOKS_KEY, 'network']],
    successMessage: serverMessage,
  });
  return (
    <Space wrap>
      <Switch
        checked={network.data?.allowPrivateNetworks ?? false}
        loading={network.isFetching || save.isPending}
        onChange={(on) => save.mutate(on)}
        data-testid="webhook-network"
      />
      <span>{t('messageCenter.network')}</span>
      <Typography.Text type="secondary" style={{ fontWeight: 'normal', whiteSpace: 'normal' }}>
        {t('messageCenter.networkHelp')}
      </Typography.Text>
    </Space>
  );
}

function WebhookModal({
  webhook,
  onClose,
  onCreated,
}: {
  webhook: TWebhook | null;
  onClose: () => void;
  onCreated: (created: TWebhookWithSecret) => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useEntityMutation({
    mutationFn: async (values: Values) =>
      webhook
        ? { created: null, result: await messageApi.editWebhook({ ...values, id: webhook.id }) }
        : { created: (await messageApi.addWebhook(values)).result, result: null },
    invalidates: [[WEBHOOKS_KEY]],
  });
  const rules = (field: keyof Values, label: string) =>
    zodRules(ZWebhookInput, field, fieldRuleMessages(t, label));
  return (
    <Modal
      open
      title={webhook ? t('messageCenter.editWebhook') : t('messageCenter.addWebhook')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'webhook-save' } as ButtonProps}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={webhook ?? { enabled: true }}
        onFinish={(values) =>
          save.mutate(values, {
            onSuccess: ({ created }) => {
              onClose();
              if (created) onCreated(created);
            },
            onError: (error) => showFieldErrors(form, error),
          })
        }
      >
        <Form.Item
          name="name"
          label={t('messageCenter.webhookName')}
          rules={rules('name', t('messageCenter.webhookName'))}
        >
          <Input data-testid="webhook-name" />
        </Form.Item>
        <Form.Item
          name="url"
          label={t('messageCenter.webhookUrl')}
          extra={t('messageCenter.webhookUrlHelp')}
          rules={rules('url', t('messageCenter.webhookUrl'))}
        >
          <Input placeholder="https://example.com/blrms-webhook" data-testid="webhook-url" />
        </Form.Item>
        <Form.Item name="enabled" label={t('messageCenter.enabled')} valuePropName="checked">
          <Switch data-testid="webhook-enabled" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
