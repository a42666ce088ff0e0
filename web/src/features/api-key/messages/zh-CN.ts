import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  apiKey: {
    title: 'API密钥',
    intro:
      '脚本和系统集成可使用API密钥调用接口（请求头 X-Api-Key），权限不超过创建时选择的权限与您当前拥有的权限。密钥只在创建时显示一次。',
    create: '创建API密钥',
    name: '名称',
    prefix: '标识',
    permissions: '权限',
    permissionsHint: '只能选择您当前拥有的权限',
    expiry: '有效期',
    days: '{{count}} 天',
    customDate: '自定义日期',
    expireDate: '到期日期',
    expireTime: '到期时间',
    status: '状态',
    statuses: {
      active: '有效',
      expired: '已过期',
      revoked: '已撤销',
    },
    reasons: {
      user: '本人撤销',
      admin: '管理员撤销',
      frozen: '用户冻结',
      deleted: '用户删除',
    },
    lastUsed: '最近使用',
    neverUsed: '从未使用',
    revoke: '撤销',
    revokeConfirm: '确定撤销API密钥“{{name}}”吗？撤销后使用它的调用将失败。',
    revoked: 'API密钥已撤销',
    createdTitle: 'API密钥已创建',
    showOnce: '请立即复制并妥善保存此密钥，关闭后将无法再次查看。',
    usage: '调用示例：',
    done: '我已保存',
    mine: '我的密钥',
    all: '全部密钥',
    user: '用户',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
