import type { TGrantTree, TGrantTreeNode } from '@blrms/contracts';
import type { TreeDataNode } from 'antd';
import { Button, Empty, Space, Tag, Tree } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

function toData(nodes: TGrantTreeNode[], buttonLabel: string): TreeDataNode[] {
  return nodes.map((n) => ({
    key: n.key,
    title:
      n.menuType === 2 ? (
        <Space size={4}>
          {n.title}
          <Tag bordered={false} color="default">
            {buttonLabel}
          </Tag>
        </Space>
      ) : (
        n.title
      ),
    children: toData(n.children, buttonLabel),
  }));
}

/** The checked rows and every menu above them. */
function withAncestors(nodes: TGrantTreeNode[], checked: ReadonlySet<string>): string[] {
  const result = new Set<string>();
  const walk = (list: TGrantTreeNode[], path: string[]) => {
    for (const n of list) {
      if (checked.has(n.key)) for (const key of [...path, n.key]) result.add(key);
      walk(n.children, [...path, n.key]);
    }
  };
  walk(nodes, []);
  return [...result];
}

function leavesOf(nodes: TGrantTreeNode[]): Set<string> {
  const leaves = new Set<string>();
  const walk = (list: TGrantTreeNode[]) => {
    for (const n of list) {
      if (n.children.length === 0) leaves.add(n.key);
      walk(n.children);
    }
  };
  walk(nodes);
  return leaves;
}

type Props = {
  tree: TGrantTree | undefined;
  granted: string[] | undefined;
  loading: boolean;
  saving: boolean;
  onSave: (permissionIds: string[]) => void;
  testId: string;
};

/**
 * Menus and buttons as a checkbox tree. Only leaves are set from the stored grants, so a menu shows
 * as partly checked when some of its children are granted; saving sends the checked rows and the
 * menus above them, which the console's menu needs to show the children.
 */
export function GrantTree({ tree, granted, loading, saving, onSave, testId }: Props) {
  const { t } = useTranslation();
  // What the user changed; until then the stored grants are shown.
  const [edited, setChecked] = useState<string[] | null>(null);
  const data = useMemo(() => toData(tree?.treeList ?? [], t('departAdmin.button')), [tree, t]);
  const stored = useMemo(() => {
    if (!tree || !granted) return [];
    const leaves = leavesOf(tree.treeList);
    return granted.filter((id) => leaves.has(id));
  }, [tree, granted]);
  const checked = edited ?? stored;

  if (!loading && data.length === 0) {
    return <Empty description={t('departAdmin.noGrantable')} data-testid={`${testId}-empty`} />;
  }
  return (
    <div data-testid={testId}>
      <Space style={{ marginBottom: 12 }} wrap>
        <Button size="small" onClick={() => setChecked([...(tree?.ids ?? [])])}>
          {t('departAdmin.checkAll')}
        </Button>
        <Button size="small" onClick={() => setChecked([])}>
          {t('departAdmin.uncheckAll')}
        </Button>
      </Space>
      <Tree
        checkable
        selectable={false}
        defaultExpandAll
        key={tree?.ids.join(',') ?? 'loading'}
        treeData={data}
        checkedKeys={checked}
        onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
        style={{ maxHeight: 420, overflow: 'auto' }}
      />
      <Button
        type="primary"
        loading={saving}
        style={{ marginTop: 12 }}
        onClick={() => onSave(withAncestors(tree?.treeList ?? [], new Set(checked)))}
        data-testid={`${testId}-save`}
      >
        {t('departAdmin.save')}
      </Button>
    </div>
  );
}
