import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const onlineFormMessages = defineMessages({
  onlineFormNotFound: { 'zh-CN': '表单不存在', 'en-US': 'Form not found' },
  onlineRecordNotFound: { 'zh-CN': '记录不存在', 'en-US': 'Record not found' },
  onlineFormSaved: { 'zh-CN': '表单已保存', 'en-US': 'Form saved' },
  onlineFormDeleted: { 'zh-CN': '表单已删除', 'en-US': 'Form deleted' },
  onlineFormPublished: {
    'zh-CN': '表单已发布，菜单中已添加其页面',
    'en-US': 'Form published; its page is in the menu',
  },
  onlineFormUnpublished: {
    'zh-CN': '表单已取消发布，记录已保留',
    'en-US': 'Form unpublished; its records are kept',
  },
  onlineFormCodeExists: {
    'zh-CN': 'code: 编码已被本公司的其他表单使用',
    'en-US': 'code: is already used by another form of the company',
  },
  onlineFormCodeReserved: {
    'zh-CN': 'code: 该编码为系统保留',
    'en-US': 'code: is reserved',
  },
  onlineFormCodeFixed: {
    'zh-CN': 'code: 已发布或已有记录的表单不能修改编码',
    'en-US': 'code: cannot change once the form was published or has records',
  },
  onlineFormTooMany: {
    'zh-CN': (p) => `每个公司最多 ${p.max} 个表单`,
    'en-US': (p) => `A company has at most ${p.max} forms`,
  },
  onlineFormHasRecords: {
    'zh-CN': (p) => `表单还有 ${p.count} 条记录，不能删除`,
    'en-US': (p) => `The form still has ${p.count} records and cannot be deleted`,
  },
  onlineFormPublishedDelete: {
    'zh-CN': '请先取消发布再删除表单',
    'en-US': 'Unpublish the form before deleting it',
  },
  onlineFormNotPublished: { 'zh-CN': '表单未发布', 'en-US': 'The form is not published' },
  onlineFormPatternInvalid: {
    'zh-CN': (p) => `fields.${p.index}.pattern: 不是有效的 RE2 正则表达式（${p.detail}）`,
    'en-US': (p) => `fields.${p.index}.pattern: not a valid RE2 regular expression (${p.detail})`,
  },
  onlineFormDefaultInvalid: {
    'zh-CN': (p) => `fields.${p.index}.defaultValue: ${p.rule}`,
    'en-US': (p) => `fields.${p.index}.defaultValue: ${p.rule}`,
  },
  onlineFormDictMissing: {
    'zh-CN': (p) => `fields.${p.index}.dictCode: 字典 ${p.code} 不存在或没有启用的项`,
    'en-US': (p) =>
      `fields.${p.index}.dictCode: dictionary ${p.code} does not exist or has no enabled items`,
  },
  onlineFormUniqueConflict: {
    'zh-CN': (p) => `fields.${p.index}.unique: 已有记录的“${p.label}”值重复，不能设为唯一`,
    'en-US': (p) =>
      `fields.${p.index}.unique: existing records repeat values of “${p.label}”; it cannot be unique`,
  },
  /** Field problems of a record, already in the request's language (`data.key: rule; ...`). */
  onlineRecordInvalid: { 'zh-CN': (p) => String(p.problems), 'en-US': (p) => String(p.problems) },
  onlineRecordTooLarge: {
    'zh-CN': (p) => `data: 记录内容不能超过 ${p.kb} KB`,
    'en-US': (p) => `data: a record must not exceed ${p.kb} KB`,
  },
  onlineSearchInvalid: {
    'zh-CN': (p) => `${p.field}: 不是此字段可用的搜索条件`,
    'en-US': (p) => `${p.field}: is not a search this field offers`,
  },
  onlineSortInvalid: {
    'zh-CN': 'column: 不是可排序的字段',
    'en-US': 'column: is not a sortable field',
  },
  onlineRecordSaved: { 'zh-CN': '记录已保存', 'en-US': 'Record saved' },
  onlineRecordDeleted: {
    'zh-CN': (p) => `已删除 ${p.count} 条记录`,
    'en-US': (p) => `${p.count} records deleted`,
  },
  onlineImportFileType: {
    'zh-CN': 'file: 只支持 .xlsx 或 .csv 文件',
    'en-US': 'file: must be an .xlsx or .csv file',
  },
  onlineImportTooManyRows: {
    'zh-CN': (p) => `file: 最多导入 ${p.max} 行`,
    'en-US': (p) => `file: at most ${p.max} rows can be imported`,
  },
  onlineImportNoColumns: {
    'zh-CN': (p) => `file: 第一行必须是表头，列名为字段名称（${p.columns}）`,
    'en-US': (p) => `file: the first row must be the header, naming the fields (${p.columns})`,
  },
  onlineImportDone: {
    'zh-CN': (p) => `已导入 ${p.imported} 行，${p.invalid} 行有错误`,
    'en-US': (p) => `${p.imported} rows imported, ${p.invalid} with errors`,
  },
  onlineImportPreview: {
    'zh-CN': (p) => `预览：${p.valid} 行可导入，${p.invalid} 行有错误`,
    'en-US': (p) => `Preview: ${p.valid} rows can be imported, ${p.invalid} have errors`,
  },
  // Rules of record values the database decides (labels are prefixed by the service).
  onlineRuleUnique: {
    'zh-CN': '已存在相同的值',
    'en-US': 'already has this value in another record',
  },
  onlineRuleDictItem: {
    'zh-CN': '不是字典中的选项',
    'en-US': 'is not an option of its dictionary',
  },
  onlineRuleDevice: { 'zh-CN': '不是本公司的设备', 'en-US': 'is not a device of the company' },
  onlineRuleLocation: { 'zh-CN': '不是本公司的位置', 'en-US': 'is not a location of the company' },
  onlineRuleFile: { 'zh-CN': '不是文件库中的文件', 'en-US': 'is not a file of the file library' },
  onlineRuleFileType: {
    'zh-CN': (p) => `文件类型必须是 ${p.accept}`,
    'en-US': (p) => `must be a file of type ${p.accept}`,
  },
  onlineRuleFileSize: {
    'zh-CN': (p) => `文件不能超过 ${p.size} 字节`,
    'en-US': (p) => `must be a file of at most ${p.size} bytes`,
  },
  onlineRulePattern: {
    'zh-CN': (p) => `格式不符合要求${p.hint ? `（${p.hint}）` : ''}`,
    'en-US': (p) => `does not match the required format${p.hint ? ` (${p.hint})` : ''}`,
  },
  onlineRuleUnknownField: { 'zh-CN': '不是表单的字段', 'en-US': 'is not a field of the form' },
});

type OnlineFormMessages = typeof onlineFormMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends OnlineFormMessages {}
}
