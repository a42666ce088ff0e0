import {
  DeleteOutlined,
  DownloadOutlined,
  PlusOutlined,
  ReloadOutlined,
  RestOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { DICT_SORT_COLUMNS, ZDictListQuery, type TDict } from '@blrms/contracts';
import { Button, Card, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { DictFormModal } from './DictFormModal';
import { DictImportModal } from './DictImportModal';
import { DictItemDrawer } from './DictItemDrawer';
import { DictRecycleBinModal } from './DictRecycleBinModal';
import {
  DICT_BIN_KEY,
  DICT_SELECT_KEY,
  DICTS_KEY,
  dictApi,
  useDicts,
  type DictParams,
} from './use-dicts';
import './system-dict.css';

type Search = { dictName?: string; dictCode?: string };

const DEFAULT_PARAMS: DictParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

/**
 * 数据字典: the options of the console's selects. A company keeps its own dictionaries and reads
 * the platform's, which only platform administrators change; its own of a platform code replaces
 * the platform's for it.
 */
export default function DictListPage() {
  const { t, i18n } = useTranslation();
  const narrow = useNarrowScreen();
  const en = i18n.language === 'en-US';
  const list = useListPage<DictParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      dictName: values.dictName?.trim() || undefined,
      dictCode: values.dictCode?.trim() || undefined,
    }),
    sort: { columns: DICT_SORT_COLUMNS, fallback: 'createTime', cleared: 'column' },
    url: ZDictListQuery,
  });
  const dicts = useDicts(list.params);
  const [editing, setEditing] = useState<TDict | null | undefined>(undefined);
  const [viewing, setViewing] = useState<TDict | null>(null);
  const [binOpen, setBinOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const canAdd = useHasAction('system:dict:add');
  const canEdit = useHasAction('system:dict:edit');
  const canDelete = useHasAction('system:dict:delete');
  const canImport = useHasAction('system:dict:import');
  const canExport = useHasAction('system:dict:export');
  const canRecycle = useHasAction('system:dict:recycle');

  const stale = [[DICTS_KEY], [DICT_BIN_KEY], [DICT_SELECT_KEY]];
  const remove = useEntityMutation({
    mutationFn: (ids: string[]) =>
      ids.length === 1 && ids[0] ? dictApi.delete(ids[0]) : dictApi.deleteBatch(ids),
    invalidates: stale,
    successMessage: serverMessage,
  });
  const refresh = useEntityMutation({
    mutationFn: () => dictApi.refreshCache(),
    invalidates: [[DICT_SELECT_KEY]],
    successMessage: serverMessage,
  });
  const [exporting, setExporting] = useState(false);
  const exportSheet = async () => {
    setExporting(true);
    try {
      await dictApi.export({ dictCode: list.params.dictCode, dictName: list.params.dictName });
    } finally {
      setExporting(false);
    }
  };

  const columns: ProColumns<TDict>[] = [
    {
      title: t('systemDict.dictName'),
      dataIndex: 'dictName',
      key: 'dictName',
      sorter: true,
      width: 200,
      render: (_, row) => (en && row.dictNameEn ? row.dictNameEn : row.dictName),
    },
    {
      title: t('systemDict.dictCode'),
      dataIndex: 'dictCode',
      key: 'dictCode',
      sorter: true,
      width: 180,
      render: (_, row) => <Typography.Text code>{row.dictCode}</Typography.Text>,
    },
    {
      title: t('systemDict.source'),
      dataIndex: 'platform',
      hideInSearch: true,
      width: 150,
      render: (_, row) => (
        <Space size={4} wrap>
          {row.platform ? (
            <Tag color="blue">{t('systemDict.platform')}</Tag>
          ) : (
            <Tag color="green">{t('systemDict.own')}</Tag>
          )}
          {row.overridden && (
            <Tooltip title={t('systemDict.overridden')}>
              <Tag data-testid={`dict-overridden-${row.dictCode}`}>↻</Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    {
      title: t('systemDict.description'),
      dataIndex: 'description',
      hideInSearch: true,
      ellipsis: true,
      responsive: ['md'],
    },
    {
      title: t('systemDict.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      width: 180,
      responsive: ['lg'],
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('systemDict.actions'),
      valueType: 'option',
      width: 210,
      fixed: narrow ? undefined : 'right',
      render: (_, row) => [
        <Button
          key="items"
          type="link"
          size="small"
          onClick={() => setViewing(row)}
          data-testid={`dict-items-${row.dictCode}`}
        >
          {row.editable && canEdit ? t('systemDict.items') : t('systemDict.view')}
        </Button>,
        row.editable && canEdit && (
          <Button
            key="edit"
            type="link"
            size="small"
            onClick={() => setEditing(row)}
            data-testid={`dict-edit-${row.dictCode}`}
          >
            {t('systemDict.editShort')}
          </Button>
        ),
        row.editable && canDelete && (
          <Popconfirm
            key="delete"
            title={t('systemDict.deleteConfirm', { code: row.dictCode })}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync([row.id])}
          >
            <Button type="link" size="small" danger data-testid={`dict-delete-${row.dictCode}`}>
              {t('systemDict.delete')}
            </Button>
          </Popconfirm>
        ),
      ],
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="dict-page">
      <ProTable<TDict, Search>
        rowKey="id"
        {...list.tableProps(dicts)}
        columns={list.withSortOrder(columns)}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        scroll={{ x: 760 }}
        rowSelection={
          canDelete
            ? {
                selectedRowKeys: selected,
                onChange: (keys) => setSelected(keys as string[]),
                getCheckboxProps: (row) => ({ disabled: !row.editable }),
              }
            : false
        }
        tableAlertRender={false}
        toolBarRender={() => [
          canDelete && selected.length > 0 && (
            <Popconfirm
              key="batch"
              title={t('systemDict.deleteSelectedConfirm', { count: selected.length })}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              onConfirm={async () => {
                await remove.mutateAsync(selected);
                setSelected([]);
              }}
            >
              <Button danger icon={<DeleteOutlined />} data-testid="dict-delete-selected">
                {t('systemDict.deleteSelected')}
              </Button>
            </Popconfirm>
          ),
          <Button
            key="refresh"
            icon={<ReloadOutlined />}
            loading={refresh.isPending}
            onClick={() => refresh.mutate()}
            data-testid="dict-refresh-cache"
          >
            {t('systemDict.refreshCache')}
          </Button>,
          canRecycle && (
            <Button
              key="bin"
              icon={<RestOutlined />}
              onClick={() => setBinOpen(true)}
              data-testid="dict-recycle-bin"
            >
              {t('systemDict.recycleBin')}
            </Button>
          ),
          canExport && (
            <Button
              key="export"
              icon={<DownloadOutlined />}
              loading={exporting}
              onClick={() => void exportSheet()}
              data-testid="dict-export"
            >
              {t('systemDict.export')}
            </Button>
          ),
          canImport && (
            <Button
              key="import"
              icon={<UploadOutlined />}
              onClick={() => setImportOpen(true)}
              data-testid="dict-import"
            >
              {t('systemDict.import')}
            </Button>
          ),
          canAdd && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing(null)}
              data-testid="dict-add"
            >
              {t('systemDict.add')}
            </Button>
          ),
        ]}
        data-testid="dict-table"
      />
      {editing !== undefined && (
        <DictFormModal dict={editing} onClose={() => setEditing(undefined)} />
      )}
      {viewing && (
        <DictItemDrawer
          dict={viewing}
          editable={viewing.editable && canEdit}
          onClose={() => setViewing(null)}
        />
      )}
      {binOpen && <DictRecycleBinModal onClose={() => setBinOpen(false)} />}
      {importOpen && <DictImportModal onClose={() => setImportOpen(false)} />}
    </Card>
  );
}
