import type { ButtonProps } from 'antd';
import type { TSmsSettings } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Modal, Radio, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRuleApi } from '../../api/account';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';

/** Which SMS provider sends phone-login and reset codes: the log/outbox, or an HTTP gateway. */
export function SmsSettingsModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TSmsSettings>();
  const settings = useQuery({ queryKey: ['smsSettings'], queryFn: checkRuleApi.smsSettings });
  const provider = Form.useWatch('provider', form);

  const save = useEntityMutation({
    mutationFn: (values: TSmsSettings) =>
      checkRuleApi.saveSmsSettings({
        provider: values.provider,
        url: values.provider === 'http' ? values.url : null,
        // Left empty: keep the stored header, which is never shown.
        ...(values.authorization ? { authorization: values.authorization } : {}),
      }),
    // The modal loads the settings each time it opens: nothing else shows them.
    invalidates: [],
    successMessage: serverMessage,
  });

  return (
    <Modal
      open
      width={640}
      title={t('checkRule.smsTitle')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'sms-settings-save' } as ButtonProps}
    >
      {settings.data ? (
        <Form<TSmsSettings>
          form={form}
          layout="vertical"
          initialValues={{ provider: settings.data.provider, url: settings.data.url }}
          onFinish={(values) => save.mutate(values, { onSuccess: onClose })}
        >
          <Alert
            type="info"
            showIcon
            message={t('checkRule.smsHelp')}
            style={{ marginBottom: 16 }}
          />
          <Form.Item name="provider" label={t('checkRule.smsProvider')}>
            <Radio.Group
              options={[
                { value: 'log', label: t('checkRule.smsLog') },
                { value: 'http', label: t('checkRule.smsHttp') },
              ]}
            />
          </Form.Item>
          {provider === 'http' && (
            <>
              <Form.Item
                name="url"
                label={t('checkRule.smsUrl')}
                rules={[
                  {
                    required: true,
                    message: t('account.required', { field: t('checkRule.smsUrl') }),
                  },
                  { type: 'url', message: t('checkRule.smsUrlRule') },
                ]}
              >
                <Input placeholder="https://sms.example.com/send" data-testid="sms-settings-url" />
              </Form.Item>
              <Form.Item name="authorization" label={t('checkRule.smsAuthorization')}>
                <Input.Password
                  autoComplete="off"
                  placeholder={
                    settings.data.hasAuthorization
                      ? t('checkRule.smsAuthorizationKept')
                      : 'Bearer ...'
                  }
                />
              </Form.Item>
            </>
          )}
        </Form>
      ) : (
        <Spin />
      )}
    </Modal>
  );
}
