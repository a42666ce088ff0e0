import type { ProColumns } from '@ant-design/pro-components';
import type { TCompany } from '@blrms/contracts';
import { COMPANY_STATUS } from '@blrms/contracts';
import { Popconfirm, Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useCompanyMutations } from './use-companies';
import { formatBytes } from '../../shared/file-size';

/**
 * The company table's columns, with the row actions: its administrators, edit, and freeze or
 * unfreeze (never the platform's own company).
 */
export function useCompanyColumns({
  onEdit,
  onShowAdmins,
}: {
  onEdit: (company: TCompany) => void;
  onShowAdmins: (company: TCompany) => void;
}): ProColumns<TCompany>[] {
  const { t } = useTranslation();
  const { setStatus } = useCompanyMutations();
  const canEdit = useHasAction('system:company:edit');
  const canFreeze = useHasAction('system:company:freeze');

  return [
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
          <a onClick={() => onShowAdmins(row)} data-testid="company-admins-open">
            {t('company.admins')}
          </a>
          {canEdit && <a onClick={() => onEdit(row)}>{t('company.edit')}</a>}
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
}
