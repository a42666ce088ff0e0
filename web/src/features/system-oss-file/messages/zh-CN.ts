import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  ossFile: {
    title: '文件管理',
    name: '文件名',
    size: '大小',
    type: '类型',
    sha256: 'SHA-256',
    createBy: '上传人',
    createTime: '上传时间',
    actions: '操作',
    upload: '上传文件',
    download: '下载',
    preview: '预览',
    noPreview: '该类型的文件不能预览，请下载后查看',
    delete: '删除',
    deleteConfirm: '删除文件“{{name}}”？删除后不能恢复。',
    copySha: '复制 SHA-256',
    usage: '存储：已用 {{used}}，共 {{limit}}（含固件）',
    usageUnlimited: '存储：已用 {{used}}（不限，含固件）',
    drop: '点击或拖拽文件到此处',
    dropHint: '单个文件不超过 {{limit}}；本公司还可存储 {{room}}',
    dropHintUnlimited: '单个文件不超过 {{limit}}',
    file: '文件',
    tooLarge: '单个文件不能超过 {{limit}}',
    noRoom: '超出本公司的存储配额：还可存储 {{room}}',
    uploading: '正在上传 {{percent}}%',
    storing: '正在保存…',
    uploaded: '文件 {{name}} 上传成功',
    previewTitle: '预览：{{name}}',
    textCut: '只显示前 {{limit}}，完整内容请下载。',
    previewFailed: '预览加载失败',
  },
};

export type Messages = Widen<typeof zhCN>;
export default zhCN;
