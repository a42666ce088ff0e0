import { ModalForm, ProFormDigit, ProFormText } from '@ant-design/pro-components';
import { ZCompanyAdd, ZCompanyAdminInput, type TCompany, type TCompanyAdd } from '@blrms/contracts';
import { Alert, Divider } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { zodRules } from '../../shared/entity/zod-rules';
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
        rules={zodRules(ZCompanyAdd, 'name', { required: t('company.nameRequired') })}
      />
      <ProFormText
        name="code"
        label={t('company.code')}
        disabled={editing !== null}
        tooltip={t('company.codeHint')}
        rules={zodRules(ZCompanyAdd, 'code', {
          required: t('company.codeRequired'),
          pattern: t('company.codeRule'),
          maxLength: () => t('company.codeRule'),
          minLength: () => t('company.codeRule'),
        })}
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
            rules={zodRules(ZCompanyAdminInput, 'username', {
              required: t('company.adminUsernameRequired'),
              pattern: t('company.adminUsernameRule'),
              maxLength: () => t('company.adminUsernameRule'),
            })}
            fieldProps={{ autoComplete: 'off' }}
          />
          <ProFormText
            name={['admin', 'realname']}
            label={t('company.adminRealname')}
            rules={zodRules(ZCompanyAdminInput, 'realname', {
              required: t('company.adminRealnameRequired'),
            })}
          />
          <ProFormText.Password
            name={['admin', 'password']}
            label={t('company.adminPassword')}
            rules={zodRules(ZCompanyAdminInput, 'password', {
              required: t('company.adminPasswordRequired'),
              minLength: (n) => t('company.adminPasswordRule', { n }),
            })}
            fieldProps={{ autoComplete: 'new-password' }}
          />
          <ProFormText
            name={['admin', 'phone']}
            label={t('company.adminPhone')}
            rules={zodRules(ZCompanyAdminInput, 'phone', { pattern: t('company.adminPhoneRule') })}
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
