import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  systemDict: {
    dictName: '字典名称',
    dictNameEn: '英文名称',
    dictCode: '字典编码',
    dictCodeRule: '以字母开头，只含字母、数字和下划线',
    description: '描述',
    source: '来源',
    platform: '平台',
    own: '本公司',
    overridden: '已被本公司字典替换',
    readOnlyHint: '平台字典只读：添加同编码的字典即可替换它',
    createTime: '创建时间',
    actions: '操作',
    add: '添加字典',
    edit: '编辑字典',
    editShort: '编辑',
    items: '字典配置',
    view: '查看',
    delete: '删除',
    deleteConfirm: '将字典 {{code}} 移入回收站？',
    deleteSelected: '删除所选',
    deleteSelectedConfirm: '将所选 {{count}} 个字典移入回收站？',
    recycleBin: '回收站',
    restore: '还原',
    purge: '彻底删除',
    purgeConfirm: '彻底删除字典 {{code}} 及其所有字典项？此操作不可撤销。',
    emptyBin: '回收站是空的',
    refreshCache: '刷新缓存',
    import: '导入',
    export: '导出',
    importTitle: '导入字典',
    importHelp:
      '每行一个字典项，列：字典编码、字典名称、字典英文名称、字典描述、数据值、名称、英文名称、描述、排序、启用(1/0)。新编码创建本公司字典，已有字典按数据值新增或更新字典项，不删除任何数据。有任何错误时不导入。',
    importLimits: '仅 .xlsx，不超过 {{mb}} MB、{{rows}} 行',
    importChoose: '选择文件',
    importErrors: '文件中的错误（未导入任何数据）',
    row: '行',
    field: '列',
    problem: '问题',
    itemsTitle: '字典项：{{name}}',
    itemText: '名称',
    itemTextEn: '英文名称',
    itemValue: '数据值',
    itemColor: '颜色',
    itemColorHelp: '标签颜色：blue、green、orange、red 等，或 #rrggbb',
    itemDescription: '描述',
    sortOrder: '排序',
    status: '状态',
    enabled: '启用',
    disabled: '停用',
    addItem: '添加字典项',
    editItem: '编辑字典项',
    deleteItemConfirm: '删除字典项 {{value}}？',
    searchItems: '名称或数据值',
    valueTaken: '该值不可用，字典中已存在',
  },
};

export type Messages = Widen<typeof zhCN>;
export default zhCN;
