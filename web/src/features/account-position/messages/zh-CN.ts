import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  position: {
    code: '职务编码',
    name: '职务名称',
    rank: '职级',
    createTime: '创建时间',
    actions: '操作',
    add: '新增职务',
    edit: '编辑',
    delete: '删除',
    deleteConfirm: '确定删除该职务吗？',
    deleteSelected: '删除所选',
    deleteSelectedConfirm: '确定删除所选的 {{count}} 个职务吗？',
    codeRequired: '请输入职务编码',
    codeRule: '只能包含字母、数字、_ 和 -',
    nameRequired: '请输入职务名称',
    rankRequired: '请选择职级',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
