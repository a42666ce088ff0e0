import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  deviceGroup: {
    title: '设备分组',
    name: '分组名称',
    namePlaceholder: '例如：华东区',
    online: '在线',
    offline: '离线',
    total: '设备总数',
    addTitle: '新增分组',
    editTitle: '编辑分组',
    deleteTitle: '删除分组“{{name}}”？',
    deleteBatchTitle: '删除选中的 {{count}} 个分组？',
    deleteContent: '分组内的设备不会被删除，它们将不属于任何分组。',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
