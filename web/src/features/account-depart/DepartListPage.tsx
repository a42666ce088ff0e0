import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { TDepartTreeNode } from '@blrms/contracts';
import type { TreeDataNode } from 'antd';
import {
  Button,
  Card,
  Col,
  Empty,
  Input,
  Popconfirm,
  Row,
  Space,
  Spin,
  Tabs,
  Tag,
  Tree,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHasAction } from '../../shared/permission/use-has-action';
import { CATEGORY_COLORS, useCategoryOptions } from './categories';
import { DepartFormModal } from './DepartFormModal';
import { DepartInfoTab } from './DepartInfoTab';
import { DepartPermissionTab } from './DepartPermissionTab';
import { DepartRolesTab } from './DepartRolesTab';
import { MembersTab } from './MembersTab';
import { useDepartMutations, useDepartTree } from './use-departs';

function flatten(nodes: TDepartTreeNode[]): TDepartTreeNode[] {
  return nodes.flatMap((n) => [n, ...flatten(n.children)]);
}

/** Nodes matching the keyword, with their ancestors so that the tree still reads as a tree. */
function filterTree(nodes: TDepartTreeNode[], keyword: string): TDepartTreeNode[] {
  if (!keyword) return nodes;
  const needle = keyword.toLowerCase();
  return nodes.flatMap((n) => {
    const children = filterTree(n.children, keyword);
    const matches =
      n.title.toLowerCase().includes(needle) || n.orgCode.toLowerCase().includes(needle);
    return matches || children.length > 0
      ? [{ ...n, children: matches ? n.children : children }]
      : [];
  });
}

/** Organisational structure: the company's department tree, with members, permissions and roles. */
export default function DepartListPage() {
  const { t } = useTranslation();
  const tree = useDepartTree();
  const { add, edit, remove } = useDepartMutations();
  const categories = useCategoryOptions();
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [keyword, setKeyword] = useState('');
  const [adding, setAdding] = useState<{ open: boolean; parent: TDepartTreeNode | null }>({
    open: false,
    parent: null,
  });
  const canAdd = useHasAction('account:depart:add');
  const canEdit = useHasAction('account:depart:edit');
  const canDelete = useHasAction('account:depart:delete');
  const canAuthorize = useHasAction('account:depart:authorize');
  const canManageMembers = useHasAction('account:depart:member');

  const all = useMemo(() => flatten(tree.data ?? []), [tree.data]);
  const selected = all.find((n) => n.id === selectedId) ?? null;
  const categoryLabel = (value: string) =>
    categories.find((c) => c.value === value)?.label ?? value;

  const treeData = useMemo(() => {
    const toData = (nodes: TDepartTreeNode[]): TreeDataNode[] =>
      nodes.map((n) => ({
        key: n.id,
        title: (
          <span data-testid={`depart-node-${n.orgCode}`}>
            {n.title}{' '}
            <Tag
              bordered={false}
              color={CATEGORY_COLORS[n.orgCategory]}
              style={{ marginInlineStart: 4 }}
            >
              {categoryLabel(n.orgCategory)}
            </Tag>
          </span>
        ),
        children: toData(n.children),
      }));
    return toData(filterTree(tree.data ?? [], keyword.trim()));
    // categoryLabel only changes with the language, as `t` does.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [tree.data, keyword, t]);

  return (
    <Row gutter={[16, 16]} data-testid="depart-page">
      <Col xs={24} lg={9} xl={8}>
        <Card
          title={t('departAdmin.tree')}
          extra={
            canAdd && (
              <Button
                size="small"
                icon={<PlusOutlined />}
                onClick={() => setAdding({ open: true, parent: null })}
                data-testid="depart-add-top"
              >
                {t('departAdmin.addTop')}
              </Button>
            )
          }
        >
          <Space direction="vertical" style={{ width: '100%' }}>
            <Input.Search
              allowClear
              placeholder={t('departAdmin.search')}
              onChange={(e) => setKeyword(e.target.value)}
            />
            {(canAdd || canDelete) && (
              <Space wrap>
                {canAdd && (
                  <Button
                    size="small"
                    type="primary"
                    ghost
                    disabled={!selected}
                    icon={<PlusOutlined />}
                    onClick={() => setAdding({ open: true, parent: selected })}
                    data-testid="depart-add-child"
                  >
                    {t('departAdmin.addChild')}
                  </Button>
                )}
                {canDelete && (
                  <Popconfirm
                    title={t('departAdmin.deleteConfirm', { name: selected?.title ?? '' })}
                    disabled={!selected}
                    onConfirm={() =>
                      selected &&
                      remove.mutate(selected.id, { onSuccess: () => setSelectedId(null) })
                    }
                  >
                    <Button
                      size="small"
                      danger
                      disabled={!selected}
                      icon={<DeleteOutlined />}
                      data-testid="depart-delete"
                    >
                      {t('departAdmin.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            )}
            {tree.isLoading ? (
              <Spin />
            ) : treeData.length === 0 ? (
              <Empty description={t('departAdmin.emptyTree')} />
            ) : (
              <Tree
                blockNode
                showLine
                defaultExpandAll
                key={all.length}
                treeData={treeData}
                selectedKeys={selectedId ? [selectedId] : []}
                onSelect={(keys) => setSelectedId(keys[0] ? String(keys[0]) : null)}
                data-testid="depart-tree"
              />
            )}
          </Space>
        </Card>
      </Col>
      <Col xs={24} lg={15} xl={16}>
        <Card
          title={selected ? `${selected.title} · ${selected.orgCode}` : t('departAdmin.details')}
        >
          {selected ? (
            <Tabs
              key={selected.id}
              items={[
                {
                  key: 'info',
                  label: t('departAdmin.tabInfo'),
                  children: (
                    <DepartInfoTab
                      depart={selected}
                      canEdit={canEdit}
                      onSave={(values) => edit.mutateAsync(values)}
                    />
                  ),
                },
                {
                  key: 'members',
                  label: (
                    <span data-testid="depart-tab-members">{t('departAdmin.tabMembers')}</span>
                  ),
                  children: <MembersTab depart={selected} canManage={canManageMembers} />,
                },
                ...(canAuthorize
                  ? [
                      {
                        key: 'permission',
                        label: (
                          <span data-testid="depart-tab-permission">
                            {t('departAdmin.tabPermission')}
                          </span>
                        ),
                        children: <DepartPermissionTab depart={selected} />,
                      },
                    ]
                  : []),
                {
                  key: 'roles',
                  label: <span data-testid="depart-tab-roles">{t('departAdmin.tabRoles')}</span>,
                  children: <DepartRolesTab depart={selected} canManage={canAuthorize} />,
                },
              ]}
            />
          ) : (
            <Empty description={t('departAdmin.pickOne')} />
          )}
        </Card>
      </Col>
      <DepartFormModal
        open={adding.open}
        parent={adding.parent}
        onClose={() => setAdding({ open: false, parent: null })}
        onSubmit={async (values) => {
          const created = await add.mutateAsync(values);
          setSelectedId(created.result.id);
        }}
      />
    </Row>
  );
}
