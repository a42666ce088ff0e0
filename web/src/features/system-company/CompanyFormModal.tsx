import { ModalForm, ProFormDigit, ProFormText } from '@ant-design/pro-components';
import type { TCompany, TCompanyAdd } from '@blrms/contracts';
import { PASSWORD_MIN_LENGTH } from '@blrms/contracts';
import { Alert, Divider } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { MEGABYTE } from '../../shared/file-size';

/** What the form edits of a company: its name, and its storage quota in MB (null: the default). */
export type CompanyEditValues = { name: string; storageQuota: number | null };
type FormValues = TCompanyAdd & { storageQuotaMb?: number | null };

type Props = {
  open: boolean;
  editing: TCompany | null;
  onClose: () => void;
  onAdd: (values: TCompanyAdd) => Promise<unknown>;
  onEdit: (values: CompanyEditValues) => Promise<unknown>;
};

/** Adds a company together with its first administrator, or renames one and sets its quota. */
export function CompanyFormModal({ open, editing, onClose, onAdd, onEdit }: Props) {
  const { t } = useTranslation();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  return (
    <ModalForm<FormValues>
      name="company"
      key={editing?.id ?? 'new'}
      title={editing ? t('company.edit') : t('company.add')}
      open={open}
      width={480}
      modalProps={{ destroyOnHidden: true, onCancel: close }}
      initialValues={
        editing
          ? {
              name: editing.name,
              code: editing.code,
              storageQuotaMb:
                editing.storageQuota === null ? null : editing.storageQuota / MEGABYTE,
            }
          : undefined
      }
      onFinish={async ({ storageQuotaMb, ...values }) => {
        setError(null);
        try {
          if (editing) {
            const mb = storageQuotaMb ?? null;
            await onEdit({
              name: values.name,
              storageQuota: mb === null ? null : Math.round(mb * MEGABYTE),
            });
          } else await onAdd(values);
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
      <ProFormText
        name="name"
        label={t('company.name')}
        rules={[{ required: true, message: t('company.nameRequired') }, { max: 100 }]}
      />
      <ProFormText
        name="code"
        label={t('company.code')}
        disabled={editing !== null}
        tooltip={t('company.codeHint')}
        rules={[
          { required: true, message: t('company.codeRequired') },
          { pattern: /^[a-z0-9-]{2,64}$/, message: t('company.codeRule') },
        ]}
      />
      {editing && (
        <ProFormDigit
          name="storageQuotaMb"
          label={t('storageQuota.field')}
          tooltip={t('storageQuota.fieldHint')}
          placeholder={t('storageQuota.default')}
          min={0}
          fieldProps={{ precision: 0 }}
          data-testid="company-storage-quota"
        />
      )}
      {!editing && (
        <>
          <Divider orientation="left" plain>
            {t('company.firstAdmin')}
          </Divider>
          <ProFormText
            name={['admin', 'username']}
            label={t('company.adminUsername')}
            rules={[
              { required: true, message: t('company.adminUsernameRequired') },
              { pattern: /^[A-Za-z0-9]{1,32}$/, message: t('company.adminUsernameRule') },
            ]}
            fieldProps={{ autoComplete: 'off' }}
          />
          <ProFormText
            name={['admin', 'realname']}
            label={t('company.adminRealname')}
            rules={[{ required: true, message: t('company.adminRealnameRequired') }, { max: 100 }]}
          />
          <ProFormText.Password
            name={['admin', 'password']}
            label={t('company.adminPassword')}
            rules={[
              { required: true, message: t('company.adminPasswordRequired') },
              {
                min: PASSWORD_MIN_LENGTH,
                message: t('company.adminPasswordRule', { n: PASSWORD_MIN_LENGTH }),
              },
            ]}
            fieldProps={{ autoComplete: 'new-password' }}
          />
          <ProFormText
            name={['admin', 'phone']}
            label={t('company.adminPhone')}
            rules={[{ pattern: /^1[3-9]\d{9}$/, message: t('company.adminPhoneRule') }]}
          />
          <ProFormText
            name={['admin', 'email']}
            label={t('company.adminEmail')}
            rules={[{ type: 'email', message: t('company.adminEmailRule') }]}
          />
        </>
      )}
    </ModalForm>
  );
}
