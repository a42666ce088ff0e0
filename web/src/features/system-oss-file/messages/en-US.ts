import type { Messages } from './zh-CN';

const enUS: Messages = {
  ossFile: {
    title: 'File storage',
    name: 'Name',
    size: 'Size',
    type: 'Type',
    sha256: 'SHA-256',
    createBy: 'Uploaded by',
    createTime: 'Uploaded',
    actions: 'Actions',
    upload: 'Upload file',
    download: 'Download',
    preview: 'Preview',
    noPreview: 'Files of this type cannot be previewed; download it instead',
    delete: 'Delete',
    deleteConfirm: 'Delete the file "{{name}}"? This cannot be undone.',
    copySha: 'Copy SHA-256',
    usage: 'Storage: {{used}} of {{limit}} (firmware included)',
    usageUnlimited: 'Storage: {{used}} (no limit, firmware included)',
    drop: 'Click or drag a file here',
    dropHint: 'Up to {{limit}} per file; the company can store {{room}} more',
    dropHintUnlimited: 'Up to {{limit}} per file',
    file: 'File',
    tooLarge: 'A file must not exceed {{limit}}',
    noRoom: "Over the company's storage quota: {{room}} left",
    uploading: 'Uploading {{percent}}%',
    storing: 'Storing…',
    uploaded: 'File {{name}} uploaded',
    previewTitle: 'Preview: {{name}}',
    textCut: 'Only the first {{limit}} is shown; download the file for all of it.',
    previewFailed: 'The preview could not be loaded',
  },
};

export default enUS;
