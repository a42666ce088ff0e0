import { CloudUploadOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import {
  OSS_FILE_CONTENT_TYPES,
  OSS_FILE_SORT_COLUMNS,
  ZOssFileQuery,
  type TOssFile,
} from '@blrms/contracts';
import { Button, Popconfirm, Space, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../../shared/CopyButton';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatBytes } from '../../shared/file-size';
import { formatDateTime } from '../../shared/format';
import { Authorized } from '../../shared/permission/Authorized';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { OssFilePreviewModal } from './OssFilePreviewModal';
import { OssFileUploadModal } from './OssFileUploadModal';
import {
  ossFileLink,
  useDeleteOssFile,
  useOssFiles,
  useOssStorage,
  type OssFileParams,
} from './use-oss-files';

const DEFAULT_PARAMS: OssFileParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

type Search = { name?: string; contentType?: TOssFile['contentType'] };

/** A sha256 short enough for a table cell: its first and last 8 hex digits. */
const shortHash = (hash: string) => `${hash.slice(0, 8)}…${hash.slice(-8)}`;

/** The browser's own download from a signed address: no file passes through page memory. */
async function download(file: TOssFile): Promise<void> {
  const { url } = await ossFileLink(file.id, 'download');
  const a = document.createElement('a');
  a.href = url;
  a.download = file.name;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * File storage (系统管理 → 文件管理): the company's files with their size, type and sha256;
 * upload with progress, download, preview of images, PDF and text, delete. The header shows what
 * the company stores of its quota, firmware included.
 */
export default function OssFileListPage() {
  const { t } = useTranslation();
  const list = useListPage<OssFileParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      name: values.name?.trim() || undefined,
      contentType: values.contentType || undefined,
    }),
    sort: { columns: OSS_FILE_SORT_COLUMNS, fallback: 'createTime' },
    url: ZOssFileQuery,
  });
  const files = useOssFiles(list.params);
  const storage = useOssStorage();
  const remove = useDeleteOssFile();
  const canDownload = useHasAction('system:oss:file:download');
  const canDelete = useHasAction('system:oss:file:delete');
  const narrow = useNarrowScreen();
  const [uploading, setUploading] = useState(false);
  const [previewing, setPreviewing] = useState<TOssFile | null>(null);

  const columns: ProColumns<TOssFile>[] = [
    {
      title: t('ossFile.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      ellipsis: true,
      width: 240,
      render: (_, row) => <span data-testid="oss-file-name">{row.name}</span>,
    },
    {
      title: t('ossFile.size'),
      dataIndex: 'size',
      key: 'size',
      sorter: true,
      hideInSearch: true,
      width: 100,
      render: (_, row) => formatBytes(row.size),
    },
    {
      title: t('ossFile.type'),
      dataIndex: 'contentType',
      key: 'contentType',
      width: 180,
      ellipsis: true,
      valueType: 'select',
      fieldProps: {
        options: OSS_FILE_CONTENT_TYPES.map((type) => ({ value: type, label: type })),
        showSearch: true,
      },
    },
    {
      title: t('ossFile.sha256'),
      dataIndex: 'sha256',
      hideInSearch: true,
      width: 200,
      render: (_, row) => (
        <Space size={2}>
          <Tooltip title={row.sha256}>
            <Typography.Text code>{shortHash(row.sha256)}</Typography.Text>
          </Tooltip>
          <CopyButton text={row.sha256} label={t('ossFile.copySha')} />
        </Space>
      ),
    },
    { title: t('ossFile.createBy'), dataIndex: 'createBy', hideInSearch: true, width: 120 },
    {
      title: t('ossFile.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      sorter: true,
      hideInSearch: true,
      width: 170,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('ossFile.actions'),
      valueType: 'option',
      width: 190,
      fixed: narrow ? undefined : 'right',
      hidden: !canDownload && !canDelete,
      render: (_, row) => (
        <Space size="small" wrap>
          {canDownload && (
            <Tooltip title={row.preview ? undefined : t('ossFile.noPreview')}>
              <Button
                type="link"
                size="small"
                disabled={!row.preview}
                onClick={() => setPreviewing(row)}
                data-testid="oss-file-preview"
              >
                {t('ossFile.preview')}
              </Button>
            </Tooltip>
          )}
          {canDownload && (
            <Button
              type="link"
              size="small"
              onClick={() => void download(row).catch(() => undefined)}
              data-testid="oss-file-download"
            >
              {t('ossFile.download')}
            </Button>
          )}
          {canDelete && (
            <Popconfirm
              title={t('ossFile.deleteConfirm', { name: row.name })}
              onConfirm={() => remove.mutateAsync(row.id)}
            >
              <Button type="link" size="small" danger data-testid="oss-file-delete">
                {t('ossFile.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <ProTable<TOssFile, Search>
        rowKey="id"
        headerTitle={
          <Space size="middle" wrap>
            {t('ossFile.title')}
            {storage.data && (
              <Typography.Text type="secondary" data-testid="oss-storage">
                {storage.data.limit === null
                  ? t('ossFile.usageUnlimited', { used: formatBytes(storage.data.used) })
                  : t('ossFile.usage', {
                      used: formatBytes(storage.data.used),
                      limit: formatBytes(storage.data.limit),
                    })}
              </Typography.Text>
            )}
          </Space>
        }
        {...list.tableProps(files)}
        columns={list.withSortOrder(columns)}
        search={{ labelWidth: 'auto' }}
        toolBarRender={() => [
          <Authorized action="system:oss:file:upload" key="upload">
            <Button
              type="primary"
              icon={<CloudUploadOutlined />}
              onClick={() => setUploading(true)}
              data-testid="oss-upload"
            >
              {t('ossFile.upload')}
            </Button>
          </Authorized>,
        ]}
        scroll={{ x: 1200 }}
        data-testid="oss-file-table"
      />
      <OssFileUploadModal
        open={uploading}
        storage={storage.data}
        onClose={() => setUploading(false)}
      />
      <OssFilePreviewModal file={previewing} onClose={() => setPreviewing(null)} />
    </>
  );
}
