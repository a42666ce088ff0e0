import type { Widen } from '../../../shared/i18n-catalog';

/**
 * Chinese texts of this feature, loaded with the pages that show it (app/i18n/feature-catalogs.ts).
 * The English file must have exactly these keys (checked by type and test).
 */
const zhCN = {
  firmware: {
    title: '固件库',
    series: '系列',
    version: '版本',
    versionPlaceholder: '例如：2.1.0',
    fileName: '文件名',
    size: '大小',
    sha256: 'SHA-256',
    copySha256: '复制 SHA-256',
    releaseNotes: '发布说明',
    releaseNotesPlaceholder: '这个版本改了什么',
    uploader: '上传人',
    uploadTime: '上传时间',
    inUse: '升级中',
    inUseHint: '有未结束的升级任务在安装此固件，不能删除',
    upload: '上传固件',
    file: '固件文件',
    drop: '点击或拖拽固件文件到此处',
    dropHint: '单个文件最大 {{limit}}，上传时计算 SHA-256',
    dropHintNoLimit: '上传时计算 SHA-256',
    tooLarge: '文件超过大小上限 {{limit}}',
    uploading: '正在上传 {{percent}}%',
    storing: '正在校验并保存…',
    uploaded: '固件 {{series}} {{version}} 已上传',
    editNotes: '编辑说明',
    editNotesTitle: '发布说明 · {{series}} {{version}}',
    download: '下载',
    deleteTitle: '删除固件 {{series}} {{version}}？',
    deleteContent: '文件将被删除；已升级的设备不受影响。',
    settings: '大小上限',
    settingsTitle: '固件大小上限',
    maxSize: '单个固件最大',
    maxSizeHint: '对整个平台生效，超过的上传会被拒绝。',
    maxSizeRule: '请输入 1 到 {{max}} 之间的整数',
    currentLimit: '当前上限 {{limit}}',
  },
  // 公司存储配额：固件页标题
  storageQuota: {
    usage: '存储：已用 {{used}}，共 {{limit}}',
    usageUnlimited: '存储：已用 {{used}}（不限）',
  },
} as const;

export type Messages = Widen<typeof zhCN>;

export default zhCN;
