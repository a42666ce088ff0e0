import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  log: {
    loginTab: '登录日志',
    operationTab: '操作日志',
    keyWord: '关键词',
    keyWordPlaceholder: '日志内容、操作人或请求路径',
    time: '创建时间',
    username: '操作人',
    ip: 'IP 地址',
    content: '日志内容',
    method: '请求方法',
    url: '请求路径',
    operateType: '操作类型',
    status: '状态',
    costTime: '耗时（毫秒）',
    actions: '操作',
    details: '详情',
    params: '请求参数',
    types: {
      query: '查询',
      add: '新增',
      edit: '修改',
      delete: '删除',
      import: '导入',
      export: '导出',
      login: '登录',
    },
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
