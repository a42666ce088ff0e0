import { PlusOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TCompany } from '@blrms/contracts';
import { COMPANY_STATUS } from '@blrms/contracts';
import { Button, Card, Popconfirm, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { CompanyAdminsDrawer } from './CompanyAdminsDrawer';
import { CompanyFormModal } from './CompanyFormModal';
import type { CompanyParams } from './use-companies';
import { useCompanies, useCompanyMutations } from './use-companies';
import { sortOf } from '../../shared/table-sort';
import { formatBytes } from '../../shared/file-size';

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
  const [params, setParams] = useState<CompanyParams>(DEFAULT_PARAMS);
  const [form, setForm] = useState<{ open: boolean; editing: TCompany | null }>({
    open: false,
    editing: null,
  });
  const [adminsOf, setAdminsOf] = useState<TCompany | null>(null);
  const companies = useCompanies(params);
  const { add, edit, setStatus } = useCompanyMutations();
  const canAdd = useHasAction('system:company:add');
  const canEdit = useHasAction('system:company:edit');
  const canFreeze = useHasAction('system:company:freeze');

  const columns: ProColumns<TCompany>[] = [
    {
      title: t('company.keyword'),
      dataIndex: 'name',
      hideInTable: true,
      fieldProps: { placeholder: t('company.keywordPlaceholder') },
    },
    {
      title: t('company.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      hideInSearch: true,
      width: 200,
      render: (_, row) => (
        <Space size={4}>
          {row.name}
          {row.isPlatform && <Tag color="purple">{t('company.platform')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('company.code'),
      dataIndex: 'code',
      key: 'code',
      sorter: true,
      hideInSearch: true,
      width: 140,
    },
    {
      title: t('company.status'),
      dataIndex: 'status',
      valueType: 'select',
      width: 110,
      valueEnum: {
        [COMPANY_STATUS.active]: { text: t('company.active'), status: 'Success' },
        [COMPANY_STATUS.frozen]: { text: t('company.frozen'), status: 'Error' },
      },
    },
    {
      title: t('company.userCount'),
      dataIndex: 'userCount',
      hideInSearch: true,
      width: 100,
      align: 'right',
    },
    {
      title: t('storageQuota.column'),
      dataIndex: 'storageUsed',
      hideInSearch: true,
      width: 200,
      render: (_, row) =>
        `${formatBytes(row.storageUsed)} / ${
          row.storageQuota === null
            ? t('storageQuota.default')
            : row.storageQuota === 0
              ? t('storageQuota.unlimited')
              : formatBytes(row.storageQuota)
        }`,
    },
    {
      title: t('company.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      sorter: true,
      hideInSearch: true,
      width: 180,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('company.actions'),
      valueType: 'option',
      width: 220,
      render: (_, row) => (
        <Space size="small" wrap>
          <a onClick={() => setAdminsOf(row)} data-testid="company-admins-open">
            {t('company.admins')}
          </a>
          {canEdit && (
            <a onClick={() => setForm({ open: true, editing: row })}>{t('company.edit')}</a>
          )}
          {canFreeze && !row.isPlatform && (
            <Popconfirm
              title={
                row.status === COMPANY_STATUS.active
                  ? t('company.freezeConfirm', { name: row.name })
                  : t('company.unfreezeConfirm', { name: row.name })
              }
              onConfirm={() =>
                setStatus.mutate({
                  id: row.id,
                  status:
                    row.status === COMPANY_STATUS.active
                      ? COMPANY_STATUS.frozen
                      : COMPANY_STATUS.active,
                })
              }
            >
              <a data-testid="company-freeze">
                {row.status === COMPANY_STATUS.active ? t('company.freeze') : t('company.unfreeze')}
              </a>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="company-page">
      <ProTable<TCompany, Search>
        rowKey="id"
        columns={columns}
        dataSource={companies.data?.records ?? []}
        loading={companies.isFetching}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        onSubmit={(values) =>
          setParams((p) => ({
            ...p,
            pageNo: 1,
            name: values.name?.trim() || undefined,
            status: values.status ? Number(values.status) : undefined,
          }))
        }
        onReset={() => setParams(DEFAULT_PARAMS)}
        options={{ reload: () => void companies.refetch(), density: true, setting: true }}
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
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: companies.data?.total ?? 0,
          showSizeChanger: true,
          showTotal: (total, [from, to]) => `${from}-${to} / ${total}`,
          onChange: (pageNo, pageSize) => setParams((p) => ({ ...p, pageNo, pageSize })),
        }}
        onChange={(_, __, sorter) => {
          const { column, order } = sortOf(sorter, SORT_COLUMNS, 'createTime');
          setParams((p) =>
            p.column === column && p.order === order ? p : { ...p, column, order, pageNo: 1 },
          );
        }}
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
