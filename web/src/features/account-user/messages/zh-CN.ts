import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  userAdmin: {
    add: '添加用户',
    edit: '编辑',
    more: '更多',
    delete: '删除',
    username: '用户账号',
    realname: '用户姓名',
    password: '登录密码',
    newPassword: '新密码',
    confirmPassword: '确认密码',
    generate: '随机生成',
    phone: '手机号',
    email: '邮箱',
    status: '状态',
    normal: '正常',
    frozen: '冻结',
    freeze: '冻结',
    unfreeze: '解冻',
    roles: '角色',
    departs: '部门',
    positions: '职务',
    company: '所属客户',
    createTime: '创建时间',
    actions: '操作',
    resetPassword: '重置密码',
    resetPasswordOf: '重置 {{username}} 的密码',
    resetPasswordHint: '保存后该用户的所有登录会话立即失效，需要用新密码重新登录。',
    passwordMismatch: '两次输入的密码不一致',
    usernameRequired: '请输入用户账号',
    usernameRule: '用户账号只能包含字母和数字',
    passwordRequired: '请输入密码',
    passwordMin: '密码至少 8 个字符',
    realnameRequired: '请输入用户姓名',
    phoneRule: '手机号格式不正确',
    emailRule: '邮箱格式不正确',
    departPlaceholder: '请选择部门',
    deleteConfirm: '确定删除用户 {{username}} 吗？',
    deleteSelected: '批量删除',
    deleteSelectedConfirm: '确定删除选中的 {{count}} 个用户吗？',
    freezeSelected: '批量冻结',
    unfreezeSelected: '批量解冻',
    import: '导入',
    export: '导出',
    importRowError: '第 {{row}} 行：{{message}}',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
