import { FileSearchOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import type { TOssFile, TPage } from '@blrms/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { Button, Input, Modal, Space, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { http, uploadFile } from '../../api/client';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';

export type Datasheet = { id: string; name: string } | null;

/** What the datasheet upload offers to choose; the server checks the type from the bytes. */
const ACCEPT =
  '.pdf,.png,.jpg,.jpeg,.gif,.webp,application/pdf,image/png,image/jpeg,image/gif,image/webp';

/**
 * The goods' datasheet: a file of the file library, uploaded here or picked there (each when the
 * user may use the library that way). The form keeps the file's id and name.
 */
export function DatasheetField({
  value,
  onChange,
}: {
  value?: Datasheet;
  onChange?: (value: Datasheet) => void;
}) {
  const { t } = useTranslation();
  const canUpload = useHasAction('system:oss:file:upload');
  const canPick = useHasAction('system:oss:file:list');
  const [picking, setPicking] = useState(false);
  const upload = useMutation({
    mutationFn: (file: File) => uploadFile<TOssFile>('/sys/oss/file/upload', file),
    onSuccess: ({ result }) => onChange?.({ id: result.id, name: result.name }),
  });

  return (
    <Space direction="vertical" size={4} style={{ width: '100%' }}>
      <Space wrap>
        {value ? (
          <Typography.Text data-testid="goods-datasheet-name">
            <PaperClipOutlined /> {value.name}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary">{t('baseData.goods.datasheetNone')}</Typography.Text>
        )}
        {value && (
          <Button size="small" type="link" danger onClick={() => onChange?.(null)}>
            {t('baseData.goods.datasheetRemove')}
          </Button>
        )}
      </Space>
      <Space wrap>
        {canUpload && (
          <Upload
            accept={ACCEPT}
            showUploadList={false}
            beforeUpload={(file) => {
              upload.mutate(file);
              return false;
            }}
          >
            <Button
              icon={<UploadOutlined />}
              loading={upload.isPending}
              data-testid="goods-datasheet-upload"
            >
              {t('baseData.goods.datasheetUpload')}
            </Button>
          </Upload>
        )}
        {canPick && (
          <Button
            icon={<FileSearchOutlined />}
            onClick={() => setPicking(true)}
            data-testid="goods-datasheet-pick"
          >
            {t('baseData.goods.datasheetPick')}
          </Button>
        )}
      </Space>
      {picking && (
        <FilePicker
          onPick={(file) => {
            onChange?.({ id: file.id, name: file.name });
            setPicking(false);
          }}
          onClose={() => setPicking(false)}
        />
      )}
    </Space>
  );
}

function FilePicker({
  onPick,
  onClose,
}: {
  onPick: (file: TOssFile) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [pageNo, setPageNo] = useState(1);
  const files = useQuery({
    queryKey: ['ossFiles', 'datasheet', name, pageNo],
    queryFn: () =>
      http.get<TPage<TOssFile>>('/sys/oss/file/list', {
        name: name || undefined,
        pageNo,
        pageSize: 8,
      }),
  });
  return (
    <Modal
      open
      width={640}
      title={t('baseData.goods.datasheetPickTitle')}
      footer={null}
      onCancel={onClose}
    >
      <Input.Search
        allowClear
        placeholder={t('baseData.goods.datasheetSearch')}
        onSearch={(text) => {
          setName(text.trim());
          setPageNo(1);
        }}
        style={{ marginBottom: 12 }}
      />
      <Table<TOssFile>
        rowKey="id"
        size="small"
        loading={files.isFetching}
        dataSource={files.data?.records ?? []}
        scroll={{ x: 480 }}
        pagination={{
          current: pageNo,
          pageSize: 8,
          total: files.data?.total ?? 0,
          showSizeChanger: false,
          onChange: setPageNo,
        }}
        columns={[
          { title: t('baseData.goods.datasheetSearch'), dataIndex: 'name', ellipsis: true },
          {
            title: t('baseData.createTime'),
            dataIndex: 'createTime',
            width: 170,
            responsive: ['sm'],
            render: (value: string) => formatDateTime(value),
          },
          {
            title: t('baseData.actions'),
            width: 80,
            render: (_, file) => (
              <Button type="link" size="small" onClick={() => onPick(file)}>
                {t('baseData.goods.choose')}
              </Button>
            ),
          },
        ]}
      />
    </Modal>
  );
}
