import { ModalForm, ProFormText, ProFormTextArea } from '@ant-design/pro-components';
import type { TRole, TRoleAdd } from '@blrms/contracts';
import { Form } from 'antd';
import { useTranslation } from 'react-i18next';
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
        rules={[
          { required: true, message: t('roleAdmin.roleCodeRequired') },
          { pattern: /^[A-Za-z][A-Za-z0-9_]*$/, message: t('roleAdmin.roleCodeRule') },
          { max: 64 },
        ]}
        fieldProps={{ id: 'role-code' }}
      />
      <ProFormText
        name="roleName"
        label={t('roleAdmin.roleName')}
        rules={[{ required: true, message: t('roleAdmin.roleNameRequired') }, { max: 100 }]}
        fieldProps={{ id: 'role-name' }}
      />
      <ProFormText
        name="roleNameEn"
        label={t('roleAdmin.roleNameEn')}
        rules={[{ max: 100 }]}
        fieldProps={{ id: 'role-name-en' }}
      />
      <ProFormTextArea
        name="description"
        label={t('roleAdmin.description')}
        rules={[{ max: 255 }]}
        fieldProps={{ id: 'role-description' }}
      />
    </ModalForm>
  );
}
