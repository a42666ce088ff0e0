import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  checkRule: {
    ruleCode: '规则编码',
    ruleCodeRule: '只能包含字母、数字、_ 或 -',
    ruleName: '规则名称',
    description: '规则描述',
    rules: '校验规则',
    pattern: '正则表达式',
    patternHelp: 'RE2 语法：不支持反向引用和环视，匹配耗时与输入长度成正比',
    messageZh: '提示信息（中文）',
    messageEn: '提示信息（英文）',
    addItem: '添加一条规则',
    removeItem: '删除这条规则',
    createTime: '创建时间',
    actions: '操作',
    add: '添加校验规则',
    edit: '编辑校验规则',
    editShort: '编辑',
    delete: '删除',
    deleteConfirm: '确定删除规则 {{code}} 吗？',
    test: '测试',
    testTitle: '测试规则 {{code}}',
    testValue: '输入要校验的值',
    smsTitle: '短信服务设置',
    smsHelp: '手机号登录和找回密码的验证码通过这里选择的服务发送。',
    smsProvider: '发送方式',
    smsLog: '写入日志和 outbox 目录（不发送）',
    smsHttp: 'HTTP 短信网关',
    smsUrl: '网关地址',
    smsUrlRule: '请输入 http(s):// 地址',
    smsAuthorization: 'Authorization 请求头',
    smsAuthorizationKept: '已设置；留空则保持不变',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
