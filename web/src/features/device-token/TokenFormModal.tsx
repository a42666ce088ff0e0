import { ModalForm, ProFormSwitch, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { ZDeviceTokenCreate, type TDeviceToken } from '@blrms/contracts';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { zodRules } from '../../shared/entity/zod-rules';
import { useCreateToken, useEditToken } from './use-tokens';

type Values = { name: string; remark?: string; autoRegister: boolean; enabled: boolean };

/**
 * Adds a token (the new key is handed to `onCreated`) or edits one. The rules are read from the
 * contract's schema (name 1 to 64 characters, remark at most 255), which the server checks again.
 */
export function TokenFormModal({
  editing,
  open,
  onClose,
  onCreated,
}: {
  /** The token to edit; null adds one. */
  editing: TDeviceToken | null;
  open: boolean;
  onClose: () => void;
  onCreated: (token: { code: string; key: string }) => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const create = useCreateToken();
  const edit = useEditToken();

  const submit = async (values: Values) => {
    const remark = values.remark?.trim() ?? '';
    try {
      if (editing) {
        await edit.mutateAsync({
          id: editing.id,
          name: values.name.trim(),
          remark: remark || null,
          autoRegister: values.autoRegister,
          enabled: values.enabled,
        });
        void message.success(t('common.saved'));
      } else {
        const created = await create.mutateAsync({
          name: values.name.trim(),
          remark: remark || undefined,
          autoRegister: values.autoRegister,
        });
        onCreated({ code: created.code, key: created.tokenKey });
      }
      return true;
    } catch {
      // The HTTP client has shown the server's message; the form keeps what was typed.
      return false;
    }
  };

  return (
    <ModalForm<Values>
      key={editing?.id ?? 'new'}
      title={editing ? t('deviceToken.editTitle') : t('deviceToken.addTitle')}
      name="tokenForm"
      open={open}
      width={520}
      initialValues={
        editing
          ? {
              name: editing.name,
              remark: editing.remark ?? '',
              autoRegister: editing.autoRegister,
              enabled: editing.enabled,
            }
          : { autoRegister: true, enabled: true }
      }
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      onFinish={submit}
      data-testid="token-form"
    >
      <ProFormText
        name="name"
        label={t('deviceToken.name')}
        placeholder={t('deviceToken.namePlaceholder')}
        rules={zodRules(ZDeviceTokenCreate, 'name', fieldRuleMessages(t, t('deviceToken.name')))}
      />
      <ProFormSwitch
        name="autoRegister"
        label={t('deviceToken.autoRegister')}
        extra={t('deviceToken.autoRegisterHint')}
      />
      {editing && (
        <ProFormSwitch
          name="enabled"
          label={t('deviceToken.enabled')}
          extra={t('deviceToken.enabledHint')}
        />
      )}
      <ProFormTextArea
        name="remark"
        label={t('common.remark')}
        fieldProps={{ maxLength: 255, showCount: true, rows: 3 }}
        rules={zodRules(ZDeviceTokenCreate, 'remark', fieldRuleMessages(t, t('common.remark')))}
      />
    </ModalForm>
  );
}
