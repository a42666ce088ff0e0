import type { TCompany } from '@blrms/contracts';
import { Drawer, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCompanyAdmins } from './use-companies';

export function CompanyAdminsDrawer({
  company,
  onClose,
}: {
  company: TCompany | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const admins = useCompanyAdmins(company?.id ?? null);
  return (
    <Drawer
      title={t('company.adminsOf', { name: company?.name ?? '' })}
      open={company !== null}
      onClose={onClose}
      width="min(560px, 100vw)"
      destroyOnHidden
    >
      <Table
        rowKey="id"
        size="small"
        loading={admins.isFetching}
        dataSource={admins.data ?? []}
        pagination={false}
        scroll={{ x: 480 }}
        columns={[
          { title: t('company.adminUsername'), dataIndex: 'username' },
          { title: t('company.adminRealname'), dataIndex: 'realname' },
          { title: t('company.adminPhone'), dataIndex: 'phone' },
          { title: t('company.adminEmail'), dataIndex: 'email' },
          {
            title: t('company.status'),
            dataIndex: 'status',
            render: (status: number) =>
              status === 1 ? (
                <Tag color="success">{t('company.userNormal')}</Tag>
              ) : (
                <Tag color="error">{t('company.userFrozen')}</Tag>
              ),
          },
        ]}
        data-testid="company-admins"
      />
    </Drawer>
  );
}
