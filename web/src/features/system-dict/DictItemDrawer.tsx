import { PlusOutlined } from '@ant-design/icons';
import type { TDict, TDictItemRow } from '@blrms/contracts';
import {
  Alert,
  Button,
  Drawer,
  Input,
  Popconfirm,
  Space,
  Table,
  Tag,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { DictItemModal } from './DictItemModal';
import {
  DICT_ITEMS_KEY,
  DICT_SELECT_KEY,
  dictApi,
  useDictItemRows,
  type DictItemParams,
} from './use-dicts';

/** The items of one dictionary, in their order; read-only for a platform one to a company. */
export function DictItemDrawer({
  dict,
  editable,
  onClose,
}: {
  dict: TDict;
  editable: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const narrow = useNarrowScreen();
  const [params, setParams] = useState<DictItemParams>({
    dictId: dict.id,
    pageNo: 1,
    pageSize: 20,
    column: 'sortOrder',
    order: 'asc',
  });
  const rows = useDictItemRows(params);
  const [editing, setEditing] = useState<TDictItemRow | null | undefined>(undefined);
  const remove = useEntityMutation({
    mutationFn: (id: string) => dictApi.deleteItem(id),
    invalidates: [[DICT_ITEMS_KEY], [DICT_SELECT_KEY]],
    successMessage: serverMessage,
  });

  const en = i18n.language === 'en-US';
  const name = en && dict.dictNameEn ? dict.dictNameEn : dict.dictName;
  const tagged = (row: TDictItemRow, text: string | null) =>
    text && row.itemColor ? <Tag color={row.itemColor}>{text}</Tag> : (text ?? '-');
  // Both texts on a wide screen; on a phone, the one of the console's language.
  const columns: TableColumnsType<TDictItemRow> = [
    {
      title: t('systemDict.itemText'),
      dataIndex: 'itemText',
      responsive: en ? ['md'] : undefined,
      render: (_, row) => tagged(row, row.itemText),
    },
    {
      title: t('systemDict.itemTextEn'),
      dataIndex: 'itemTextEn',
      responsive: en ? undefined : ['md'],
      render: (_, row) => tagged(row, row.itemTextEn),
    },
    { title: t('systemDict.itemValue'), dataIndex: 'itemValue' },
    { title: t('systemDict.sortOrder'), dataIndex: 'sortOrder', width: 80, responsive: ['md'] },
    {
      title: t('systemDict.status'),
      dataIndex: 'status',
      width: 90,
      render: (_, row) =>
        row.status === 1 ? (
          <Tag color="success">{t('systemDict.enabled')}</Tag>
        ) : (
          <Tag>{t('systemDict.disabled')}</Tag>
        ),
    },
    ...(editable
      ? [
          {
            title: t('systemDict.actions'),
            key: 'actions',
            width: 130,
            render: (_: unknown, row: TDictItemRow) => (
              <Space size={0}>
                <Button
                  type="link"
                  size="small"
                  onClick={() => setEditing(row)}
                  data-testid={`dict-item-edit-${row.itemValue}`}
                >
                  {t('systemDict.editShort')}
                </Button>
                <Popconfirm
                  title={t('systemDict.deleteItemConfirm', { value: row.itemValue })}
                  okText={t('common.ok')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => remove.mutateAsync(row.id)}
                >
                  <Button
                    type="link"
                    size="small"
                    danger
                    data-testid={`dict-item-delete-${row.itemValue}`}
                  >
                    {t('systemDict.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]
      : []),
  ];

  return (
    <Drawer
      open
      width={narrow ? '100%' : 760}
      title={t('systemDict.itemsTitle', { name })}
      onClose={onClose}
      destroyOnHidden
      data-testid="dict-item-drawer"
    >
      {!dict.editable && (
        <Alert
          type="info"
          showIcon
          message={t('systemDict.readOnlyHint')}
          style={{ marginBottom: 12 }}
        />
      )}
      <div className="dict-item-drawer__toolbar">
        <Input.Search
          allowClear
          placeholder={t('systemDict.searchItems')}
          style={{ maxWidth: 260 }}
          onSearch={(value) =>
            setParams((p) => ({ ...p, itemText: value.trim() || undefined, pageNo: 1 }))
          }
          data-testid="dict-item-search"
        />
        {editable && (
          <Button
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => setEditing(null)}
            data-testid="dict-item-add"
          >
            {t('systemDict.addItem')}
          </Button>
        )}
      </div>
      <Table<TDictItemRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rows.data?.records ?? []}
        loading={rows.isFetching}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: params.pageNo,
          pageSize: params.pageSize,
          total: rows.data?.total ?? 0,
          showSizeChanger: false,
          onChange: (pageNo) => setParams((p) => ({ ...p, pageNo })),
        }}
        data-testid="dict-item-table"
      />
      {editing !== undefined && (
        <DictItemModal
          dictId={dict.id}
          item={editing}
          nextOrder={rows.data?.total ?? 0}
          onClose={() => setEditing(undefined)}
        />
      )}
    </Drawer>
  );
}
