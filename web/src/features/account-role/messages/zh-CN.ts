import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  roleAdmin: {
    add: '新建角色',
    edit: '编辑',
    delete: '删除',
    authorize: '授权',
    search: '角色',
    searchPlaceholder: '名称或编码',
    roleCode: '角色编码',
    roleName: '角色名称',
    roleNameEn: '英文名称',
    description: '描述',
    createTime: '创建时间',
    actions: '操作',
    roleCodeRequired: '请输入角色编码',
    roleCodeRule: '以字母开头，只能包含字母、数字和下划线',
    roleNameRequired: '请输入角色名称',
    deleteConfirm: '确定删除角色 {{name}} 吗？拥有该角色的用户将失去它授予的权限。',
    deleteConfirmHeld:
      '确定删除角色 {{name}} 吗？有 {{count}} 个用户拥有该角色，他们将失去它授予的权限；没有其他角色的用户将无法使用控制台。',
    deleteSelected: '批量删除',
    deleteSelectedConfirm: '确定删除选中的 {{count}} 个角色吗？',
    deleteSelectedHeld:
      '确定删除选中的 {{count}} 个角色吗？共有 {{users}} 个用户拥有这些角色，他们将失去它们授予的权限。',
    userCount: '用户数',
    authorizeTitle: '角色授权：{{name}}',
    checkAll: '全选',
    checkNone: '全不选',
    save: '保存',
    button: '按钮',
    dataRules: '数据规则',
    dataRulesOf: '数据规则：{{name}}',
    dataRulesHint: '勾选的规则同时生效（并且）；不勾选任何规则表示不限制数据。',
    saveGrantFirst: '请先保存授权，再为该权限选择数据规则。',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
