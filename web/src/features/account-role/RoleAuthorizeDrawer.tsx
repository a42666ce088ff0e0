import type { TPermissionTreeNode, TRole } from '@blrms/contracts';
import {
  Alert,
  Button,
  Checkbox,
  Drawer,
  Empty,
  Modal,
  Space,
  Spin,
  Tag,
  Tree,
  Typography,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toggle } from './tree-check';
import {
  useGrantableTree,
  useRoleDataRules,
  useRoleMutations,
  useRolePermissionIds,
} from './use-roles';

type Props = { role: TRole | null; onClose: () => void };

/** Which menus and buttons a role grants, and which data rules its grants carry. */
export function RoleAuthorizeDrawer({ role, onClose }: Props) {
  const { t } = useTranslation();
  const tree = useGrantableTree(role !== null);
  const granted = useRolePermissionIds(role?.id ?? null);
  const { savePermissions } = useRoleMutations();
  // Untouched, the tree shows what the role grants; the first click starts an edited copy.
  const [edited, setChecked] = useState<Set<string> | null>(null);
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const [rulesOf, setRulesOf] = useState<TPermissionTreeNode | null>(null);

  const treeList = useMemo(() => tree.data?.treeList ?? [], [tree.data]);
  const saved = useMemo(() => new Set(granted.data ?? []), [granted.data]);
  const checked = edited ?? saved;

  const titleOf = (node: TPermissionTreeNode) => (
    <Space size={4}>
      <span>{node.title}</span>
      {node.menuType === 2 && <Tag bordered={false}>{t('roleAdmin.button')}</Tag>}
      {node.ruleCount > 0 && checked.has(node.key) && (
        <a
          onClick={(e) => {
            e.stopPropagation();
            setRulesOf(node);
          }}
          data-testid={`role-rules-${node.key}`}
        >
          {t('roleAdmin.dataRules')}
        </a>
      )}
    </Space>
  );
  const toTreeData = (nodes: TPermissionTreeNode[]): object[] =>
    nodes.map((n) => ({ key: n.key, title: titleOf(n), children: toTreeData(n.children ?? []) }));

  return (
    <Drawer
      title={t('roleAdmin.authorizeTitle', { name: role?.roleName ?? '' })}
      open={role !== null}
      width="min(520px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      extra={
        <Space>
          <Button onClick={() => setChecked(new Set(tree.data?.ids ?? []))}>
            {t('roleAdmin.checkAll')}
          </Button>
          <Button onClick={() => setChecked(new Set())}>{t('roleAdmin.checkNone')}</Button>
        </Space>
      }
      footer={
        <Space style={{ float: 'right' }}>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            loading={savePermissions.isPending}
            disabled={!role || !granted.data}
            onClick={() =>
              role && savePermissions.mutate({ roleId: role.id, permissionIds: [...checked] })
            }
            data-testid="role-authorize-save"
          >
            {t('roleAdmin.save')}
          </Button>
        </Space>
      }
      data-testid="role-authorize"
    >
      {tree.isLoading || granted.isLoading ? (
        <Spin />
      ) : treeList.length === 0 ? (
        <Empty />
      ) : (
        <Tree
          checkable
          checkStrictly
          selectable={false}
          treeData={toTreeData(treeList) as never}
          checkedKeys={[...checked]}
          expandedKeys={expanded ?? tree.data?.ids ?? []}
          onExpand={(keys) => setExpanded(keys.map(String))}
          onCheck={(_, info) =>
            setChecked(toggle(treeList, checked, String(info.node.key), info.checked))
          }
        />
      )}
      {role && rulesOf && (
        <DataRulesModal
          roleId={role.id}
          permission={rulesOf}
          grantSaved={saved.has(rulesOf.key)}
          onClose={() => setRulesOf(null)}
        />
      )}
    </Drawer>
  );
}

function DataRulesModal(props: {
  roleId: string;
  permission: TPermissionTreeNode;
  grantSaved: boolean;
  onClose: () => void;
}) {
  const { roleId, permission, grantSaved, onClose } = props;
  const { t } = useTranslation();
  const rules = useRoleDataRules(roleId, permission.key);
  const { saveDataRules } = useRoleMutations();
  const [chosen, setChosen] = useState<string[] | null>(null);
  const value = chosen ?? rules.data?.drChecked ?? [];

  return (
    <Modal
      open
      title={t('roleAdmin.dataRulesOf', { name: permission.title })}
      onCancel={onClose}
      okText={t('roleAdmin.save')}
      okButtonProps={{ disabled: !grantSaved, loading: saveDataRules.isPending }}
      onOk={() =>
        saveDataRules.mutate(
          { roleId, permissionId: permission.key, dataRuleIds: value },
          { onSuccess: onClose },
        )
      }
      data-testid="role-data-rules"
    >
      {!grantSaved && (
        <Alert
          type="warning"
          showIcon
          message={t('roleAdmin.saveGrantFirst')}
          style={{ marginBottom: 12 }}
        />
      )}
      <Typography.Paragraph type="secondary">{t('roleAdmin.dataRulesHint')}</Typography.Paragraph>
      {rules.isLoading ? (
        <Spin />
      ) : (
        <Checkbox.Group
          value={value}
          onChange={(v) => setChosen(v.map(String))}
          style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
          options={(rules.data?.datarule ?? []).map((r) => ({
            value: r.id,
            disabled: r.status === '0',
            label: (
              <span>
                {r.ruleName}{' '}
                <Typography.Text code>
                  {r.ruleColumn} {r.ruleConditions} {r.ruleValue}
                </Typography.Text>
              </span>
            ),
          }))}
        />
      )}
    </Modal>
  );
}
