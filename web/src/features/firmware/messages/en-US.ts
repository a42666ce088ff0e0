import type { Messages } from './zh-CN';

const enUS: Messages = {
  firmware: {
    title: 'Firmware library',
    series: 'Series',
    version: 'Version',
    versionPlaceholder: 'e.g. 2.1.0',
    fileName: 'File',
    size: 'Size',
    sha256: 'SHA-256',
    copySha256: 'Copy SHA-256',
    releaseNotes: 'Release notes',
    releaseNotesPlaceholder: 'What changed in this version',
    uploader: 'Uploaded by',
    uploadTime: 'Uploaded',
    inUse: 'In use',
    inUseHint: 'An unfinished campaign installs this firmware; it cannot be deleted',
    upload: 'Upload firmware',
    file: 'Firmware file',
    drop: 'Click or drag a firmware file here',
    dropHint: 'Up to {{limit}} per file; the SHA-256 is computed on upload',
    dropHintNoLimit: 'The SHA-256 is computed on upload',
    tooLarge: 'The file is over the limit of {{limit}}',
    uploading: 'Uploading {{percent}}%',
    storing: 'Checking and saving…',
    uploaded: 'Firmware {{series}} {{version}} uploaded',
    editNotes: 'Edit notes',
    editNotesTitle: 'Release notes · {{series}} {{version}}',
    download: 'Download',
    deleteTitle: 'Delete firmware {{series}} {{version}}?',
    deleteContent: 'The file is deleted; devices already upgraded keep their firmware.',
    settings: 'Size limit',
    settingsTitle: 'Firmware size limit',
    maxSize: 'Largest firmware file',
    maxSizeHint: 'For the whole platform; larger uploads are refused.',
    maxSizeRule: 'Enter a whole number from 1 to {{max}}',
    currentLimit: 'Limit now {{limit}}',
  },
  // Per-company storage quota: firmware page header
  storageQuota: {
    usage: 'Storage: {{used}} of {{limit}}',
    usageUnlimited: 'Storage: {{used}} (no limit)',
  },
};

export default enUS;
