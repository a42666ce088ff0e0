import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  company: {
    keyword: '关键字',
    keywordPlaceholder: '客户名称或编码',
    name: '客户名称',
    code: '客户编码',
    platform: '平台',
    status: '状态',
    active: '正常',
    frozen: '冻结',
    userCount: '用户数',
    createTime: '创建时间',
    actions: '操作',
    admins: '管理员',
    edit: '编辑',
    add: '新增客户',
    freeze: '冻结',
    unfreeze: '解冻',
    freezeConfirm: '冻结“{{name}}”后，其用户将被立即登出且无法登录。确定冻结吗？',
    unfreezeConfirm: '确定解冻“{{name}}”吗？',
    nameRequired: '请输入客户名称',
    codeRequired: '请输入客户编码',
    codeRule: '2-64 位小写字母、数字或 -',
    codeHint: '唯一标识，创建后不可修改',
    firstAdmin: '首个管理员账号',
    adminUsername: '用户名',
    adminUsernameRequired: '请输入用户名',
    adminUsernameRule: '只能包含字母和数字',
    adminRealname: '姓名',
    adminRealnameRequired: '请输入姓名',
    adminPassword: '初始密码',
    adminPasswordRequired: '请输入初始密码',
    adminPasswordRule: '至少 {{n}} 个字符',
    adminPhone: '手机号',
    adminPhoneRule: '手机号格式不正确',
    adminEmail: '邮箱',
    adminEmailRule: '邮箱格式不正确',
    adminsOf: '{{name}} 的管理员',
    userNormal: '正常',
    userFrozen: '冻结',
  },
  // 公司存储配额：公司列表与表单
  storageQuota: {
    column: '存储 已用 / 配额',
    field: '存储配额（MB）',
    fieldHint: '留空：使用部署默认值（COMPANY_STORAGE_QUOTA）；0：不限',
    default: '默认',
    unlimited: '不限',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
