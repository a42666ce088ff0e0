import { ModalForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import { ZRoleAdd, type TRole, type TRoleAdd } from '@blrms/contracts';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';
import { submitForm } from '../../shared/field-errors';

type Props = {
  open: boolean;
  editing: TRole | null;
  onClose: () => void;
  onSubmit: (values: TRoleAdd) => Promise<unknown>;
};

export function RoleFormModal({ open, editing, onClose, onSubmit }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TRoleAdd>();
  return (
    <ModalForm<TRoleAdd>
      key={editing?.id ?? 'new'}
      form={form}
      title={editing ? t('roleAdmin.edit') : t('roleAdmin.add')}
      open={open}
      width={480}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={
        editing
          ? {
              roleCode: editing.roleCode,
              roleName: editing.roleName,
              roleNameEn: editing.roleNameEn ?? undefined,
              description: editing.description ?? undefined,
            }
          : undefined
      }
      onFinish={async (values) => {
        const saved = await submitForm(form, () =>
          onSubmit({
            roleCode: values.roleCode.trim(),
            roleName: values.roleName.trim(),
            roleNameEn: values.roleNameEn?.trim() || null,
            description: values.description?.trim() || null,
          }),
        );
        if (!saved) return false;
        onClose();
        return true;
      }}
      data-testid="role-form"
    >
      <ProFormText
        name="roleCode"
        label={t('roleAdmin.roleCode')}
        disabled={editing?.roleCode === 'admin'}
        rules={zodRules(ZRoleAdd, 'roleCode', {
          required: t('roleAdmin.roleCodeRequired'),
          pattern: t('roleAdmin.roleCodeRule'),
        })}
        fieldProps={{ id: 'role-code' }}
      />
      <ProFormText
        name="roleName"
        label={t('roleAdmin.roleName')}
        rules={zodRules(ZRoleAdd, 'roleName', { required: t('roleAdmin.roleNameRequired') })}
        fieldProps={{ id: 'role-name' }}
      />
      <ProFormText
        name="roleNameEn"
        label={t('roleAdmin.roleNameEn')}
        rules={zodRules(ZRoleAdd, 'roleNameEn')}
        fieldProps={{ id: 'role-name-en' }}
      />
      <ProFormTextArea
        name="description"
        label={t('roleAdmin.description')}
        rules={zodRules(ZRoleAdd, 'description')}
        fieldProps={{ id: 'role-description' }}
      />
    </ModalForm>
  );
}
