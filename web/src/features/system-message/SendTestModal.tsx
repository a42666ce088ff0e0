import type { ButtonProps } from 'antd';
import type { TMessageTemplate } from '@blrms/contracts';
import { Alert, App, Form, Input, Modal, Radio } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { showFieldErrors } from '../../shared/field-errors';
import { useLoginUser } from '../../shared/use-login-user';
import { MESSAGES_KEY, messageApi } from './message-api';

type Values = { to: 'me' | 'address'; address?: string; lang: 'zh-CN' | 'en-US' };

/** "Send a test": the template with its test data, to oneself or to an address. */
export function SendTestModal({
  template,
  onClose,
}: {
  template: TMessageTemplate;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const me = useLoginUser();
  const queryClient = useQueryClient();
  const to = Form.useWatch('to', form);
  const byAddress = template.channel === 'email' || template.channel === 'sms';
  const webhook = template.channel === 'webhook';

  const send = useEntityMutation({
    mutationFn: (values: Values) =>
      messageApi.sendTest({
        id: template.id,
        lang: values.lang,
        ...(webhook
          ? {}
          : values.to === 'address'
            ? { address: values.address }
            : { userId: me?.id }),
      }),
    invalidates: [[MESSAGES_KEY]],
  });

  return (
    <Modal
      open
      title={t('messageCenter.sendTestTitle', { code: template.code })}
      okText={t('messageCenter.sendTest')}
      cancelText={t('common.cancel')}
      confirmLoading={send.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'send-test-submit' } as ButtonProps}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={{ to: 'me', lang: i18n.language === 'en-US' ? 'en-US' : 'zh-CN' }}
        onFinish={(values) =>
          send.mutate(values, {
            onSuccess: (result) => {
              void message.success(`${result.message} · ${t('messageCenter.queuedHint')}`);
              void queryClient.invalidateQueries({ queryKey: [MESSAGES_KEY] });
              onClose();
            },
            onError: (error) =>
              showFieldErrors(form, error, (path) =>
                path[0] === 'userId' ? ['to'] : path[0] === 'address' ? ['address'] : null,
              ),
          })
        }
      >
        {webhook ? (
          <Alert
            type="info"
            showIcon
            message={t('messageCenter.webhookTestHelp')}
            style={{ marginBottom: 16 }}
          />
        ) : (
          <Form.Item name="to" label={t('messageCenter.receiver')}>
            <Radio.Group data-testid="send-test-to">
              <Radio value="me">
                {t('messageCenter.toMe')} {me ? `(${me.username})` : ''}
              </Radio>
              {byAddress && <Radio value="address">{t('messageCenter.toAddress')}</Radio>}
            </Radio.Group>
          </Form.Item>
        )}
        {byAddress && to === 'address' && (
          <Form.Item
            name="address"
            label={
              template.channel === 'email'
                ? t('messageCenter.addressEmail')
                : t('messageCenter.addressPhone')
            }
            rules={[
              {
                required: true,
                whitespace: true,
                message: t('form.required', { field: t('messageCenter.address') }),
              },
            ]}
          >
            <Input data-testid="send-test-address" />
          </Form.Item>
        )}
        <Form.Item name="lang" label={t('messageCenter.lang')}>
          <Radio.Group
            options={[
              { value: 'zh-CN', label: '中文' },
              { value: 'en-US', label: 'English' },
            ]}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
