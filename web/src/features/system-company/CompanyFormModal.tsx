import { ModalForm, ProFormGroup, ProFormText } from '@ant-design/pro-components';
import type { TCompany, TCompanyAdd } from '@blrms/contracts';
import { PASSWORD_MIN_LENGTH } from '@blrms/contracts';
import { Alert, Divider } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';

type Props = {
  open: boolean;
  editing: TCompany | null;
  onClose: () => void;
  onAdd: (values: TCompanyAdd) => Promise<unknown>;
  onRename: (name: string) => Promise<unknown>;
};

/** Adds a company together with its first administrator, or renames one. */
export function CompanyFormModal({ open, editing, onClose, onAdd, onRename }: Props) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <ModalForm<TCompanyAdd>
      key={editing?.id ?? 'new'}
      title={editing ? t('company.edit') : t('company.add')}
      open={open}
      width={560}
      modalProps={{ destroyOnHidden: true, onCancel: close }}
      initialValues={editing ? { name: editing.name, code: editing.code } : undefined}
      onFinish={async (values) => {
        setError(null);
        try {
          if (editing) await onRename(values.name);
          else await onAdd(values);
          close();
          return true;
        } catch (e) {
          setError(e instanceof ApiError ? e.message : String(e));
          return false;
        }
      }}
      data-testid="company-form"
    >
      {error && (
        <Alert
          type="error"
          showIcon
          message={error}
          style={{ marginBottom: 16 }}
          data-testid="company-form-error"
        />
      )}
      <ProFormGroup>
        <ProFormText
          name="name"
          label={t('company.name')}
          width="md"
          rules={[{ required: true, message: t('company.nameRequired') }, { max: 100 }]}
          fieldProps={{ id: 'company-name' }}
        />
        <ProFormText
          name="code"
          label={t('company.code')}
          width="md"
          disabled={editing !== null}
          tooltip={t('company.codeHint')}
          rules={[
            { required: true, message: t('company.codeRequired') },
            { pattern: /^[a-z0-9-]{2,64}$/, message: t('company.codeRule') },
          ]}
          fieldProps={{ id: 'company-code' }}
        />
      </ProFormGroup>
      {!editing && (
        <>
          <Divider orientation="left" plain>
            {t('company.firstAdmin')}
          </Divider>
          <ProFormGroup>
            <ProFormText
              name={['admin', 'username']}
              label={t('company.adminUsername')}
              width="md"
              rules={[
                { required: true, message: t('company.adminUsernameRequired') },
                { pattern: /^[A-Za-z0-9]{1,32}$/, message: t('company.adminUsernameRule') },
              ]}
              fieldProps={{ id: 'company-admin-username', autoComplete: 'off' }}
            />
            <ProFormText
              name={['admin', 'realname']}
              label={t('company.adminRealname')}
              width="md"
              rules={[
                { required: true, message: t('company.adminRealnameRequired') },
                { max: 100 },
              ]}
              fieldProps={{ id: 'company-admin-realname' }}
            />
            <ProFormText.Password
              name={['admin', 'password']}
              label={t('company.adminPassword')}
              width="md"
              rules={[
                { required: true, message: t('company.adminPasswordRequired') },
                {
                  min: PASSWORD_MIN_LENGTH,
                  message: t('company.adminPasswordRule', { n: PASSWORD_MIN_LENGTH }),
                },
              ]}
              fieldProps={{ id: 'company-admin-password', autoComplete: 'new-password' }}
            />
            <ProFormText
              name={['admin', 'phone']}
              label={t('company.adminPhone')}
              width="md"
              rules={[{ pattern: /^1[3-9]\d{9}$/, message: t('company.adminPhoneRule') }]}
              fieldProps={{ id: 'company-admin-phone' }}
            />
            <ProFormText
              name={['admin', 'email']}
              label={t('company.adminEmail')}
              width="md"
              rules={[{ type: 'email', message: t('company.adminEmailRule') }]}
              fieldProps={{ id: 'company-admin-email' }}
            />
          </ProFormGroup>
        </>
      )}
    </ModalForm>
  );
}
