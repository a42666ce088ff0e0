import { ModalForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { ZDeviceGroupCreate, type TDeviceGroup } from '@blrms/contracts';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { zodRules } from '../../shared/entity/zod-rules';
import { useCreateGroup, useEditGroup } from './use-groups';

type Values = { name: string; remark?: string };

/** Adds or edits a group; the rules are the contract's (name 1 to 64, remark at most 255). */
export function GroupFormModal({
  editing,
  open,
  onClose,
}: {
  editing: TDeviceGroup | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const create = useCreateGroup();
  const edit = useEditGroup();

  const submit = async (values: Values) => {
    const name = values.name.trim();
    const remark = values.remark?.trim() ?? '';
    try {
      if (editing) await edit.mutateAsync({ id: editing.id, name, remark: remark || null });
      else await create.mutateAsync({ name, remark: remark || undefined });
      void message.success(t('common.saved'));
      return true;
    } catch {
      // The HTTP client has shown the server's message; the form keeps what was typed.
      return false;
    }
  };

  return (
    <ModalForm<Values>
      key={editing?.id ?? 'new'}
      title={editing ? t('deviceGroup.editTitle') : t('deviceGroup.addTitle')}
      name="groupForm"
      open={open}
      width={520}
      initialValues={editing ? { name: editing.name, remark: editing.remark ?? '' } : {}}
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      onFinish={submit}
      data-testid="group-form"
    >
      <ProFormText
        name="name"
        label={t('deviceGroup.name')}
        placeholder={t('deviceGroup.namePlaceholder')}
        rules={zodRules(ZDeviceGroupCreate, 'name', fieldRuleMessages(t, t('deviceGroup.name')))}
      />
      <ProFormTextArea
        name="remark"
        label={t('common.remark')}
        fieldProps={{ maxLength: 255, showCount: true, rows: 3 }}
        rules={zodRules(ZDeviceGroupCreate, 'remark', fieldRuleMessages(t, t('common.remark')))}
      />
    </ModalForm>
  );
}
