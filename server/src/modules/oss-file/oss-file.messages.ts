import { defineMessages } from '../../platform/http/messages.js';

/** What this module's services and routes say to a client, in both languages. */
export const ossFileMessages = defineMessages({
  // File storage (issue 18).
  ossFileUploaded: {
    'zh-CN': (p) => `文件 ${p.name} 上传成功`,
    'en-US': (p) => `File ${p.name} uploaded`,
  },
  ossFileNotFound: { 'zh-CN': '文件不存在', 'en-US': 'File not found' },
  ossFileMissing: {
    'zh-CN': 'file: 请上传一个文件（表单字段 file）',
    'en-US': 'file: one file is required (form part file)',
  },
  ossFileEmpty: { 'zh-CN': 'file: 文件不能为空', 'en-US': 'file: must not be empty' },
  ossFileTooLarge: {
    'zh-CN': (p) => `file: 单个文件不能超过 ${p.limit}，文件未保存`,
    'en-US': (p) => `file: a file must not exceed ${p.limit}; the file was not stored`,
  },
  ossFileNoPreview: {
    'zh-CN': (p) => `该类型（${p.type}）的文件不能预览，请下载后查看`,
    'en-US': (p) => `Files of this type (${p.type}) cannot be previewed; download it instead`,
  },
  ossFileLinkInvalid: { 'zh-CN': '文件链接无效', 'en-US': 'Invalid file link' },
  ossFileLinkExpired: { 'zh-CN': '文件链接已过期', 'en-US': 'The file link has expired' },
});

type OssFileMessages = typeof ossFileMessages;

declare module '../../platform/http/messages.js' {
  interface MessageCatalogue extends OssFileMessages {}
}
