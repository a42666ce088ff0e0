import { defineMessages } from '../../platform/http/messages.js';

/** Location kinds in messages: params name kinds by key ('region', 'site', 'cabinet', 'none'). */
const KINDS_ZH: Record<string, string> = {
  region: '区域',
  site: '站点',
  cabinet: '机柜',
  none: '无（顶级）',
};
const KINDS_EN: Record<string, string> = {
  region: 'a region',
  site: 'a site',
  cabinet: 'a cabinet',
  none: 'nothing (top level)',
};
const kindsZh = (keys: string | number) =>
  String(keys)
    .split(',')
    .map((k) => KINDS_ZH[k] ?? k)
    .join('或');
const kindsEn = (keys: string | number) =>
  String(keys)
    .split(',')
    .map((k) => KINDS_EN[k] ?? k)
    .join(' or ');

/** What the base-data module (goods, locations, vendors) says to clients, in both languages. */
export const baseDataMessages = defineMessages({
  baseSaved: { 'zh-CN': '已保存', 'en-US': 'Saved' },
  baseDeleted: {
    'zh-CN': (p) => `已删除 ${p.count} 条`,
    'en-US': (p) => `${p.count} deleted`,
  },
  baseGoodsNotFound: { 'zh-CN': '物料不存在', 'en-US': 'Goods not found' },
  baseLocationNotFound: { 'zh-CN': '位置不存在', 'en-US': 'Location not found' },
  baseVendorNotFound: { 'zh-CN': '供应商不存在', 'en-US': 'Vendor not found' },
  baseGoodsModelExists: {
    'zh-CN': 'model: 同型号、同硬件版本的物料已存在',
    'en-US': 'model: goods with this model and hardware revision already exist',
  },
  baseVendorNameExists: {
    'zh-CN': 'name: 供应商名称已存在',
    'en-US': 'name: a vendor with this name already exists',
  },
  baseLocationNameExists: {
    'zh-CN': 'name: 同一上级下已有同名位置',
    'en-US': 'name: the parent already has a location with this name',
  },
  baseGoodsDatasheetNotFound: {
    'zh-CN': 'datasheetFileId: 文件库中没有此文件',
    'en-US': 'datasheetFileId: no such file in the file library',
  },
  baseGoodsDatasheetType: {
    'zh-CN': 'datasheetFileId: 规格书必须是 PDF 或图片',
    'en-US': 'datasheetFileId: the datasheet must be a PDF or an image',
  },
  baseGoodsNoDatasheet: {
    'zh-CN': '该物料没有规格书',
    'en-US': 'These goods have no datasheet',
  },
  baseGoodsInUse: {
    'zh-CN': (p) => `${p.count} 台设备引用了该物料，不能删除；请先修改这些设备的物料`,
    'en-US': (p) =>
      `${p.count} device(s) reference these goods and they cannot be deleted; change the devices' goods first`,
  },
  baseVendorInUse: {
    'zh-CN': (p) => `${p.count} 台设备引用了该供应商，不能删除；请先修改这些设备的供应商`,
    'en-US': (p) =>
      `${p.count} device(s) reference this vendor and it cannot be deleted; change the devices' vendor first`,
  },
  baseLocationInUse: {
    'zh-CN': (p) => `${p.count} 台设备位于该位置，不能删除；请先修改这些设备的位置`,
    'en-US': (p) =>
      `${p.count} device(s) are at this location and it cannot be deleted; move the devices first`,
  },
  baseLocationHasChildren: {
    'zh-CN': (p) => `该位置下还有 ${p.count} 个下级位置，不能删除；请先删除或移走下级位置`,
    'en-US': (p) =>
      `This location has ${p.count} location(s) under it and cannot be deleted; delete or move them first`,
  },
  baseLocationParentNotFound: {
    'zh-CN': 'parentId: 上级位置不存在',
    'en-US': 'parentId: the parent location does not exist',
  },
  baseLocationParentKind: {
    'zh-CN': (p) => `parentId: ${kindsZh(p.kind!)}的上级只能是${kindsZh(p.allowed!)}`,
    'en-US': (p) => `parentId: the parent of ${kindsEn(p.kind!)} must be ${kindsEn(p.allowed!)}`,
  },
  baseLocationCycle: {
    'zh-CN': 'parentId: 不能把位置移到它自己或它的下级之下',
    'en-US': 'parentId: a location cannot be moved under itself or one of its descendants',
  },
  baseLocationKindChildren: {
    'zh-CN': (p) => `kind: 该位置有下级${kindsZh(p.child!)}，不能改为${kindsZh(p.kind!)}`,
    'en-US': (p) =>
      `kind: this location has ${kindsEn(p.child!)} under it and cannot become ${kindsEn(p.kind!)}`,
  },
  baseLocationTooDeep: {
    'zh-CN': (p) => `parentId: 位置最多 ${p.max} 层`,
    'en-US': (p) => `parentId: locations nest at most ${p.max} levels deep`,
  },
  baseLocationsTooMany: {
    'zh-CN': (p) => `一个公司最多 ${p.max} 个位置`,
    'en-US': (p) => `A company has at most ${p.max} locations`,
  },
  baseKindRegion: { 'zh-CN': '区域', 'en-US': 'region' },
  baseKindSite: { 'zh-CN': '站点', 'en-US': 'site' },
  baseKindCabinet: { 'zh-CN': '机柜', 'en-US': 'cabinet' },
  baseVendorSupplier: { 'zh-CN': '供货商', 'en-US': 'Supplier' },
  baseVendorInstaller: { 'zh-CN': '安装商', 'en-US': 'Installer' },
  baseVendorCarrier: { 'zh-CN': '运营商', 'en-US': 'Carrier' },
  baseVendorMaintainer: { 'zh-CN': '维保商', 'en-US': 'Maintainer' },
  baseImportFileType: {
    'zh-CN': 'file: 只支持 .xlsx 和 .csv 文件',
    'en-US': 'file: must be an .xlsx or .csv file',
  },
  baseImportFieldInvalid: {
    'zh-CN': (p) => `${p.field}: 取值无效`,
    'en-US': (p) => `${p.field}: is invalid`,
  },
  baseImportNoHeader: {
    'zh-CN': (p) => `file: 第一行必须是表头，且包含列 ${p.columns}`,
    'en-US': (p) => `file: the first row must be a header with the columns ${p.columns}`,
  },
  baseImportTooManyRows: {
    'zh-CN': (p) => `file: 最多导入 ${p.max} 行`,
    'en-US': (p) => `file: at most ${p.max} rows can be imported`,
  },
  baseImportDone: {
    'zh-CN': (p) => `已导入 ${p.imported} 行，已存在 ${p.existing} 行，错误 ${p.invalid} 行`,
    'en-US': (p) =>
      `${p.imported} rows imported, ${p.existing} already there, ${p.invalid} with errors`,
  },
  baseImportChecked: {
    'zh-CN': (p) => `预览：${p.valid} 行可导入，错误 ${p.invalid} 行`,
    'en-US': (p) => `Preview: ${p.valid} rows can be imported, ${p.invalid} with errors`,
  },
  baseRowRequired: { 'zh-CN': '不能为空', 'en-US': 'is required' },
  baseRowDuplicate: {
    'zh-CN': (p) => `与第 ${p.row} 行重复`,
    'en-US': (p) => `repeats row ${p.row}`,
  },
  baseRowParentUnknown: {
    'zh-CN': (p) => `找不到上级位置“${p.name}”`,
    'en-US': (p) => `no parent location "${p.name}"`,
  },
  baseRowParentAmbiguous: {
    'zh-CN': (p) => `有多个名为“${p.name}”的位置，请写完整路径（如 华东/上海站）`,
    'en-US': (p) =>
      `several locations are named "${p.name}"; write the whole path (such as East/Shanghai)`,
  },
  baseRowParentKind: {
    'zh-CN': (p) => `${kindsZh(p.kind!)}的上级只能是${kindsZh(p.allowed!)}`,
    'en-US': (p) => `the parent of ${kindsEn(p.kind!)} must be ${kindsEn(p.allowed!)}`,
  },
  baseRowNotNumber: { 'zh-CN': '必须是数字', 'en-US': 'must be a number' },
  baseRowBadValue: {
    'zh-CN': (p) => `必须是以下之一：${p.values}`,
    'en-US': (p) => `must be one of: ${p.values}`,
  },
  baseColumnSeries: { 'zh-CN': '设备系列', 'en-US': 'Series' },
  baseColumnModel: { 'zh-CN': '型号', 'en-US': 'Model' },
  baseColumnHwRevision: { 'zh-CN': '硬件版本', 'en-US': 'Hardware revision' },
  baseColumnDescription: { 'zh-CN': '描述', 'en-US': 'Description' },
  baseColumnEnabled: { 'zh-CN': '启用(1/0)', 'en-US': 'Enabled (1/0)' },
  baseColumnParent: { 'zh-CN': '上级位置', 'en-US': 'Parent' },
  baseColumnKind: { 'zh-CN': '类型', 'en-US': 'Kind' },
  baseColumnName: { 'zh-CN': '名称', 'en-US': 'Name' },
  baseColumnAddress: { 'zh-CN': '地址', 'en-US': 'Address' },
  baseColumnLatitude: { 'zh-CN': '纬度', 'en-US': 'Latitude' },
  baseColumnLongitude: { 'zh-CN': '经度', 'en-US': 'Longitude' },
  baseColumnContactName: { 'zh-CN': '联系人', 'en-US': 'Contact' },
  baseColumnContactPhone: { 'zh-CN': '联系电话', 'en-US': 'Phone' },
  baseColumnContactEmail: { 'zh-CN': '邮箱', 'en-US': 'Email' },
  baseColumnSortNo: { 'zh-CN': '排序', 'en-US': 'Order' },
  baseColumnContractNo: { 'zh-CN': '合同编号', 'en-US': 'Contract no.' },
  baseColumnContractStart: { 'zh-CN': '合同开始', 'en-US': 'Contract start' },
  baseColumnContractEnd: { 'zh-CN': '合同结束', 'en-US': 'Contract end' },
  baseColumnWarrantyEnd: { 'zh-CN': '质保截止', 'en-US': 'Warranty end' },
  baseColumnRemark: { 'zh-CN': '备注', 'en-US': 'Remark' },
  baseColumnCreateTime: { 'zh-CN': '创建时间', 'en-US': 'Created' },
  baseSheetGoods: { 'zh-CN': '物料', 'en-US': 'Goods' },
  baseSheetLocations: { 'zh-CN': '位置', 'en-US': 'Locations' },
  baseSheetVendors: { 'zh-CN': '供应商', 'en-US': 'Vendors' },
});

type BaseDataMessages = typeof baseDataMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends BaseDataMessages {}
}
