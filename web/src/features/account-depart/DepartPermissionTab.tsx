import type { TDepartTreeNode } from '@blrms/contracts';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import { GrantTree } from './GrantTree';
import { useDepartMutations, useDepartPermissionIds, useGrantableTree } from './use-departs';

/** What the department's roles may be given: a ceiling, granting nothing by itself. */
export function DepartPermissionTab({ depart }: { depart: TDepartTreeNode }) {
  const { t } = useTranslation();
  const tree = useGrantableTree(depart.id);
  const granted = useDepartPermissionIds(depart.id);
  const { saveDepartPermission } = useDepartMutations();
  return (
    <>
      <Alert
        type="info"
        showIcon
        message={t('departAdmin.ceilingHint')}
        style={{ marginBottom: 12 }}
      />
      <GrantTree
        tree={tree.data}
        granted={granted.data}
        loading={tree.isLoading || granted.isLoading}
        saving={saveDepartPermission.isPending}
        onSave={(permissionIds) =>
          saveDepartPermission.mutate({ departId: depart.id, permissionIds })
        }
        testId="depart-permission-tree"
      />
    </>
  );
}
