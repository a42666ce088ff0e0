import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  announcement: {
    content: '内容',
    audience: '通告对象',
    audiences: {
      all: '全体用户',
      user: '指定用户',
      depart: '指定部门',
      role: '指定角色',
    },
    users: '用户',
    departs: '部门',
    roles: '角色',
    openType: '打开方式',
    openTypes: {
      none: '无',
      url: '链接',
      component: '组件',
    },
    openPage: '页面或链接',
    busId: '业务 ID',
    startTime: '开始时间',
    endTime: '结束时间',
    period: '有效期',
    status: '发布状态',
    statuses: {
      '0': '未发布',
      '1': '已发布',
      '2': '已撤销',
    },
    createTime: '创建时间',
    recipients: '已读/接收',
    actions: '操作',
    add: '新增',
    edit: '编辑',
    view: '查看',
    delete: '删除',
    release: '发布',
    revoke: '撤销',
    deleteConfirm: '确定删除该通告吗？',
    releaseConfirm: '发布后将立即推送给通告对象，确定发布吗？',
    revokeConfirm: '撤销后接收人将不再看到该通告，确定撤销吗？',
    saved: '保存成功',
    deleted: '删除成功',
    addTitle: '新增通告',
    editTitle: '编辑通告',
    required: '请填写{{field}}',
    chooseRequired: '请选择{{field}}',
    editor: {
      bold: '加粗',
      italic: '斜体',
      underline: '下划线',
      bulletList: '无序列表',
      orderedList: '有序列表',
      link: '插入链接',
      linkPrompt: '链接地址（http:// 或 https://）',
      clear: '清除格式',
    },
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
