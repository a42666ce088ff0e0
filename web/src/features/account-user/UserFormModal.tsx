import {
  ModalForm,
  ProFormSelect,
  ProFormText,
  ProFormTreeSelect,
} from '@ant-design/pro-components';
import {
  ZAdminUserAdd,
  type TAdminUser,
  type TAdminUserAdd,
  type TAdminUserEdit,
} from '@blrms/contracts';
import { Button, Form, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { generatePassword } from './generate-password';
import { zodRules } from '../../shared/entity/zod-rules';
import { submitForm } from '../../shared/field-errors';
import { useCompanyOptions, useDepartTree, usePositionOptions, useRoleOptions } from './use-users';

type Values = {
  username?: string;
  password?: string;
  realname: string;
  phone?: string;
  email?: string;
  companyId?: string;
  roleIds?: string[];
  departIds?: string[];
  positionIds?: string[];
};

type Props = {
  open: boolean;
  editing: TAdminUser | null;
  /** The console acts in this company; departments and positions are offered for it only. */
  currentCompanyId: string | null;
  /** Platform administrators may add the user to another company. */
  canChooseCompany: boolean;
  onClose: () => void;
  onSubmit: (values: TAdminUserAdd | TAdminUserEdit) => Promise<unknown>;
};

export function UserFormModal(props: Props) {
  const { open, editing, currentCompanyId, canChooseCompany, onClose, onSubmit } = props;
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const chosenCompany = Form.useWatch('companyId', form);
  const companyId = editing?.companyId ?? chosenCompany ?? currentCompanyId ?? undefined;
  // Departments and positions come from the current company's lists.
  const inCurrentCompany = !companyId || companyId === currentCompanyId;
  const roles = useRoleOptions(inCurrentCompany ? undefined : companyId, open);
  const departs = useDepartTree(open && inCurrentCompany);
  const positions = usePositionOptions(open && inCurrentCompany);
  const companies = useCompanyOptions(open && canChooseCompany && !editing);

  return (
    <ModalForm<Values>
      key={editing?.id ?? 'new'}
      form={form}
      title={editing ? t('userAdmin.edit') : t('userAdmin.add')}
      open={open}
      width={560}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      initialValues={
        editing
          ? {
              realname: editing.realname,
              phone: editing.phone ?? undefined,
              email: editing.email ?? undefined,
              roleIds: editing.roleIds,
              departIds: editing.departIds,
              positionIds: editing.positionIds,
            }
          : {
              companyId: currentCompanyId ?? undefined,
              roleIds: [],
              departIds: [],
              positionIds: [],
            }
      }
      onFinish={async (values) => {
        const common = {
          realname: values.realname.trim(),
          phone: values.phone?.trim() || null,
          email: values.email?.trim() || null,
          roleIds: values.roleIds ?? [],
          departIds: inCurrentCompany ? (values.departIds ?? []) : [],
          positionIds: inCurrentCompany ? (values.positionIds ?? []) : [],
        };
        const saved = await submitForm(form, () =>
          onSubmit(
            editing
              ? { id: editing.id, ...common }
              : {
                  ...common,
                  username: values.username ?? '',
                  password: values.password ?? '',
                  ...(canChooseCompany && values.companyId ? { companyId: values.companyId } : {}),
                },
          ),
        );
        if (!saved) return false;
        onClose();
        return true;
      }}
      grid
      rowProps={{ gutter: 16 }}
      data-testid="user-form"
    >
      {!editing && (
        <>
          <ProFormText
            name="username"
            label={t('userAdmin.username')}
            colProps={{ xs: 24, sm: 12 }}
            rules={zodRules(ZAdminUserAdd, 'username', {
              required: t('userAdmin.usernameRequired'),
              pattern: t('userAdmin.usernameRule'),
            })}
            fieldProps={{ id: 'user-username', autoComplete: 'off' }}
          />
          <ProFormText
            name="password"
            label={t('userAdmin.password')}
            colProps={{ xs: 24, sm: 12 }}
            rules={zodRules(ZAdminUserAdd, 'password', {
              required: t('userAdmin.passwordRequired'),
              minLength: () => t('userAdmin.passwordMin'),
            })}
            fieldProps={{
              id: 'user-password',
              autoComplete: 'new-password',
              addonAfter: (
                <Button
                  type="link"
                  size="small"
                  onClick={() => form.setFieldValue('password', generatePassword())}
                  data-testid="user-generate-password"
                >
                  {t('userAdmin.generate')}
                </Button>
              ),
            }}
          />
        </>
      )}
      <ProFormText
        name="realname"
        label={t('userAdmin.realname')}
        colProps={{ xs: 24, sm: 12 }}
        rules={zodRules(ZAdminUserAdd, 'realname', { required: t('userAdmin.realnameRequired') })}
        fieldProps={{ id: 'user-realname' }}
      />
      <ProFormText
        name="phone"
        label={t('userAdmin.phone')}
        colProps={{ xs: 24, sm: 12 }}
        rules={zodRules(ZAdminUserAdd, 'phone', { pattern: t('userAdmin.phoneRule') })}
        fieldProps={{ id: 'user-phone' }}
      />
      <ProFormText
        name="email"
        label={t('userAdmin.email')}
        colProps={{ xs: 24, sm: 12 }}
        rules={[{ type: 'email', message: t('userAdmin.emailRule') }, { max: 255 }]}
        fieldProps={{ id: 'user-email' }}
      />
      {canChooseCompany && !editing && (
        <ProFormSelect
          name="companyId"
          label={t('userAdmin.company')}
          colProps={{ xs: 24, sm: 12 }}
          rules={[{ required: true }]}
          options={(companies.data?.records ?? []).map((c) => ({ value: c.id, label: c.name }))}
          fieldProps={{
            id: 'user-company',
            showSearch: true,
            optionFilterProp: 'label',
            onChange: () => form.setFieldsValue({ roleIds: [], departIds: [], positionIds: [] }),
          }}
        />
      )}
      <ProFormSelect
        name="roleIds"
        label={t('userAdmin.roles')}
        colProps={{ span: 24 }}
        mode="multiple"
        options={(roles.data ?? []).map((r) => ({ value: r.id, label: r.roleName }))}
        fieldProps={{ id: 'user-roles', optionFilterProp: 'label', loading: roles.isFetching }}
      />
      {inCurrentCompany && (
        <>
          <ProFormTreeSelect
            name="departIds"
            label={t('userAdmin.departs')}
            colProps={{ xs: 24, sm: 12 }}
            fieldProps={{
              id: 'user-departs',
              multiple: true,
              treeData: departs.data ?? [],
              treeDefaultExpandAll: true,
              showCheckedStrategy: TreeSelect.SHOW_ALL,
              fieldNames: { label: 'title', value: 'id', children: 'children' },
              loading: departs.isFetching,
            }}
          />
          <ProFormSelect
            name="positionIds"
            label={t('userAdmin.positions')}
            colProps={{ xs: 24, sm: 12 }}
            mode="multiple"
            options={(positions.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
            fieldProps={{ id: 'user-positions', optionFilterProp: 'label' }}
          />
        </>
      )}
    </ModalForm>
  );
}
