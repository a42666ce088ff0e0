import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  deviceToken: {
    title: 'Token密钥',
    name: '名称',
    namePlaceholder: '例如：一号产线',
    code: '编码',
    key: '密钥',
    reveal: '显示密钥',
    hide: '隐藏密钥',
    copyKey: '复制密钥',
    autoRegister: '自动注册',
    autoRegisterHint: '开启后，用此密钥连接的未登记 SN 会自动登记为设备',
    enabled: '启用',
    enabledHint: '停用后，设备不能再用此密钥连接',
    deviceCount: '设备数',
    addTitle: '新增Token密钥',
    editTitle: '编辑Token密钥',
    regenerate: '重新生成',
    regenerateTitle: '重新生成密钥？',
    regenerateContent: '旧密钥立即失效，使用它的设备要换成新密钥才能连接。',
    deleteTitle: '删除Token密钥“{{name}}”？',
    deleteContent: '仍有设备使用的Token密钥不能删除，请先删除这些设备。',
    disableTitle: '停用Token密钥“{{name}}”？',
    disableContent: '停用后，使用此密钥的设备不能连接，直到重新启用。',
    enabledDone: '已启用',
    disabledDone: '已停用',
    newKeyTitle: 'Token密钥已创建',
    newKeyTitleRegenerated: '密钥已重新生成',
    newKeyHint:
      '设备用此密钥连接平台（MQTT 密码），请妥善保管。有“显示密钥”权限的用户之后仍可查看。',
    newKeyHintRegenerated: '旧密钥已失效，请把新密钥配置到使用此 Token 的设备上。',
    connectAs: '设备的 MQTT 客户端 ID 和用户名为其设备标签码：',
    removedSns: '已移除设备',
    removedTitle: '从“{{name}}”移除的设备',
    removedHint:
      '从此 Token 删除的设备再次连接时会被拒绝（device-removed），即使开启了自动注册。重新允许后该 SN 可再次注册；在控制台手动添加该设备也会重新允许。',
    removedSn: 'SN',
    removedAt: '移除时间',
    removedBy: '移除人',
    allowAgain: '重新允许',
    allowAgainTitle: '允许 SN“{{sn}}”再次注册？',
    allowedDone: '{{sn}} 已可再次注册',
    removedEmpty: '没有已移除的设备',
    snSearch: '搜索 SN',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
