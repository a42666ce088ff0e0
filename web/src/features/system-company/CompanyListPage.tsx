import { PlusOutlined } from '@ant-design/icons';
import { ProTable } from '@ant-design/pro-components';
import type { TCompany } from '@blrms/contracts';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useListPage } from '../../shared/entity/use-list-page';
import { useHasAction } from '../../shared/permission/use-has-action';
import { CompanyAdminsDrawer } from './CompanyAdminsDrawer';
import { CompanyFormModal } from './CompanyFormModal';
import type { CompanyParams } from './use-companies';
import { useCompanies, useCompanyMutations } from './use-companies';
import { useCompanyColumns } from './use-company-columns';

const DEFAULT_PARAMS: CompanyParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};
const SORT_COLUMNS = ['createTime', 'name', 'code'] as const;

type Search = { name?: string; status?: string };

/** Customers of the platform: their status and administrators (platform administrators only). */
export default function CompanyListPage() {
  const { t } = useTranslation();
  const list = useListPage<CompanyParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      name: values.name?.trim() || undefined,
      status: values.status ? Number(values.status) : undefined,
    }),
    sort: { columns: SORT_COLUMNS, fallback: 'createTime' },
    reset: 'defaults',
  });
  const [form, setForm] = useState<{ open: boolean; editing: TCompany | null }>({
    open: false,
    editing: null,
  });
  const [adminsOf, setAdminsOf] = useState<TCompany | null>(null);
  const companies = useCompanies(list.params);
  const { add, edit } = useCompanyMutations();
  const canAdd = useHasAction('system:company:add');

  const columns = useCompanyColumns({
    onEdit: (company) => setForm({ open: true, editing: company }),
    onShowAdmins: setAdminsOf,
  });

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="company-page">
      <ProTable<TCompany, Search>
        rowKey="id"
        {...list.tableProps(companies)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        scroll={{ x: 1150 }}
        toolBarRender={() => [
          canAdd && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setForm({ open: true, editing: null })}
              data-testid="company-add"
            >
              {t('company.add')}
            </Button>
          ),
        ]}
      />
      <CompanyFormModal
        open={form.open}
        editing={form.editing}
        onClose={() => setForm({ open: false, editing: null })}
        onAdd={(values) =>
          add.mutateAsync({
            ...values,
            admin: {
              ...values.admin,
              phone: values.admin.phone || null,
              email: values.admin.email || null,
            },
          })
        }
        onEdit={(values) =>
          form.editing ? edit.mutateAsync({ id: form.editing.id, ...values }) : Promise.resolve()
        }
      />
      <CompanyAdminsDrawer company={adminsOf} onClose={() => setAdminsOf(null)} />
    </Card>
  );
}
