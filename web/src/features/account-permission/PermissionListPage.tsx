import { PlusOutlined } from '@ant-design/icons';
import type { TPermissionNode } from '@blrms/contracts';
import { Alert, Button, Card, Popconfirm, Space, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../shared/permission/use-has-action';
import { DataRuleDrawer, ruleColumnsOf } from './DataRuleDrawer';
import { PermissionFormModal } from './PermissionFormModal';
import { usePermissionMutations, usePermissionTree } from './use-permissions';

const TYPE_COLORS = ['blue', 'green', 'orange'] as const;

/**
 * Menu permissions: the catalogue of menus, pages and buttons shared by every company. Platform
 * administrators change it; everyone else with the page reads it (the server enforces both).
 */
export default function PermissionListPage() {
  const { t, i18n } = useTranslation();
  const tree = usePermissionTree();
  const { save, remove } = usePermissionMutations();
  // Only platform administrators manage customer companies; the same holds for the catalogue.
  const platformAdmin = useHasAction('system:company:list');
  const can = {
    add: useHasAction('account:permission:add') && platformAdmin,
    edit: useHasAction('account:permission:edit') && platformAdmin,
    delete: useHasAction('account:permission:delete') && platformAdmin,
    datarule: useHasAction('account:permission:datarule') && platformAdmin,
  };
  const [form, setForm] = useState<{
    open: boolean;
    editing: TPermissionNode | null;
    parentId: string | null;
  }>({ open: false, editing: null, parentId: null });
  const [rulesOf, setRulesOf] = useState<TPermissionNode | null>(null);
  const nameOf = (n: TPermissionNode) => (i18n.language === 'en-US' && n.nameEn) || n.name;

  const columns: ColumnsType<TPermissionNode> = [
    {
      title: t('permissionAdmin.name'),
      dataIndex: 'name',
      width: 240,
      fixed: 'left',
      render: (_, row) => nameOf(row),
    },
    {
      title: t('permissionAdmin.menuType'),
      dataIndex: 'menuType',
      width: 100,
      render: (type: number) => (
        <Tag color={TYPE_COLORS[type]}>
          {t(`permissionAdmin.type${type}` as 'permissionAdmin.type0')}
        </Tag>
      ),
    },
    {
      title: t('permissionAdmin.url'),
      dataIndex: 'url',
      width: 200,
      ellipsis: true,
      render: (_, row) => row.url && <Typography.Text code>{row.url}</Typography.Text>,
    },
    { title: t('permissionAdmin.component'), dataIndex: 'component', width: 170, ellipsis: true },
    { title: t('permissionAdmin.icon'), dataIndex: 'icon', width: 110, ellipsis: true },
    {
      title: t('permissionAdmin.perms'),
      dataIndex: 'perms',
      width: 220,
      render: (_, row) => row.perms && <Typography.Text code>{row.perms}</Typography.Text>,
    },
    { title: t('permissionAdmin.sortNo'), dataIndex: 'sortNo', width: 70, align: 'right' },
    {
      title: t('permissionAdmin.flags'),
      key: 'flags',
      width: 160,
      render: (_, row) => (
        <Space size={2} wrap>
          {row.hidden && <Tag>{t('permissionAdmin.hidden')}</Tag>}
          {row.keepAlive && <Tag>{t('permissionAdmin.keepAlive')}</Tag>}
          {!row.route && row.menuType !== 2 && <Tag>{t('permissionAdmin.noRoute')}</Tag>}
          {row.internalOrExternal && <Tag>{t('permissionAdmin.external')}</Tag>}
          {row.ruleCount > 0 && (
            <Tag color="purple">{t('permissionAdmin.ruleCount', { count: row.ruleCount })}</Tag>
          )}
        </Space>
      ),
    },
    {
      title: t('permissionAdmin.actions'),
      key: 'actions',
      width: i18n.language === 'en-US' ? 250 : 210,
      fixed: 'right',
      render: (_, row) => (
        <Space size="small">
          {can.edit && (
            <a
              onClick={() => setForm({ open: true, editing: row, parentId: row.parentId })}
              data-testid="permission-edit"
            >
              {t('permissionAdmin.edit')}
            </a>
          )}
          {can.add && row.menuType !== 2 && (
            <a
              onClick={() => setForm({ open: true, editing: null, parentId: row.id })}
              data-testid="permission-add-child"
            >
              {t('permissionAdmin.addChild')}
            </a>
          )}
          {(row.ruleCount > 0 || ruleColumnsOf(row.perms).length > 0) && (
            <a onClick={() => setRulesOf(row)} data-testid="permission-rules">
              {t('permissionAdmin.dataRules')}
            </a>
          )}
          {can.delete && (
            <Popconfirm
              title={t('permissionAdmin.deleteConfirm', { name: nameOf(row) })}
              onConfirm={() => remove.mutate(row.id)}
            >
              <a data-testid="permission-delete">{t('permissionAdmin.delete')}</a>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <Card
      data-testid="permission-page"
      title={t('permissionAdmin.title')}
      extra={
        can.add && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setForm({ open: true, editing: null, parentId: null })}
            data-testid="permission-add"
          >
            {t('permissionAdmin.add')}
          </Button>
        )
      }
    >
      {!platformAdmin && (
        <Alert
          type="info"
          showIcon
          message={t('permissionAdmin.readOnly')}
          style={{ marginBottom: 16 }}
        />
      )}
      <Table<TPermissionNode>
        rowKey="id"
        size="middle"
        loading={tree.isFetching}
        columns={columns}
        dataSource={tree.data ?? []}
        pagination={false}
        scroll={{ x: 1300 }}
        expandable={{ defaultExpandedRowKeys: (tree.data ?? []).map((n) => n.id) }}
        key={tree.data ? 'loaded' : 'loading'}
      />
      <PermissionFormModal
        open={form.open}
        editing={form.editing}
        parentId={form.parentId}
        tree={tree.data ?? []}
        onClose={() => setForm({ open: false, editing: null, parentId: null })}
        onSubmit={(values) =>
          save.mutateAsync(form.editing ? { ...values, id: form.editing.id } : values)
        }
      />
      <DataRuleDrawer
        permission={rulesOf}
        editable={can.datarule}
        onClose={() => setRulesOf(null)}
      />
    </Card>
  );
}
