import { DeleteOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons';
import { EXPORT_FORMATS } from '@blrms/contracts';
import { Button, Popconfirm } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ExportButton } from '../../shared/ExportButton';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useHasAction } from '../../shared/permission/use-has-action';
import { BaseImportModal } from './BaseImportModal';
import { API_OF, KEYS_OF, type BaseEntity } from './use-base-data';

/**
 * What the goods, location and vendor lists share: the permission codes of their buttons, delete
 * (one or the selected rows; the server refuses rows devices reference, and says how many), the
 * toolbar (delete selected, export, import, add) and the import dialog.
 */
export function useBaseListActions(
  entity: BaseEntity,
  options: {
    entityName: string;
    exportFilters: () => Record<string, string | number | undefined>;
    onAdd: () => void;
  },
) {
  const { t } = useTranslation();
  const can = {
    add: useHasAction(`base:${entity}:add`),
    edit: useHasAction(`base:${entity}:edit`),
    delete: useHasAction(`base:${entity}:delete`),
    import: useHasAction(`base:${entity}:import`),
    export: useHasAction(`base:${entity}:export`),
  };
  const [selected, setSelected] = useState<string[]>([]);
  const [importing, setImporting] = useState(false);
  const api = API_OF[entity];
  const remove = useEntityMutation({
    mutationFn: (ids: string[]) =>
      ids.length === 1 && ids[0] ? api.delete(ids[0]) : api.deleteBatch(ids),
    invalidates: KEYS_OF[entity],
    successMessage: serverMessage,
  });

  const deleteButton = (id: string, name: string) =>
    can.delete && (
      <Popconfirm
        key="delete"
        title={t('baseData.deleteConfirm', { name })}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        onConfirm={() => remove.mutateAsync([id]).catch(() => undefined)}
      >
        <Button type="link" size="small" danger data-testid={`${entity}-delete-${name}`}>
          {t('baseData.delete')}
        </Button>
      </Popconfirm>
    );

  const toolbar = (): ReactNode[] => [
    can.delete && selected.length > 0 && (
      <Popconfirm
        key="batch"
        title={t('baseData.deleteSelectedConfirm', { count: selected.length })}
        okText={t('common.ok')}
        cancelText={t('common.cancel')}
        onConfirm={async () => {
          await remove.mutateAsync(selected).catch(() => undefined);
          setSelected([]);
        }}
      >
        <Button danger icon={<DeleteOutlined />} data-testid={`${entity}-delete-selected`}>
          {t('baseData.deleteSelected')}
        </Button>
      </Popconfirm>
    ),
    can.export && (
      <ExportButton
        key="export"
        formats={EXPORT_FORMATS}
        label={t('baseData.export')}
        formatLabel={(format) => t(`baseData.exportFormat_${format}`)}
        onExport={(format) => api.export(format, options.exportFilters())}
        testId={`${entity}-export`}
      />
    ),
    can.import && (
      <Button
        key="import"
        icon={<UploadOutlined />}
        onClick={() => setImporting(true)}
        data-testid={`${entity}-import`}
      >
        {t('baseData.import')}
      </Button>
    ),
    can.add && (
      <Button
        key="add"
        type="primary"
        icon={<PlusOutlined />}
        onClick={options.onAdd}
        data-testid={`${entity}-add`}
      >
        {t('baseData.add')}
      </Button>
    ),
  ];

  const rowSelection = can.delete
    ? { selectedRowKeys: selected, onChange: (keys: React.Key[]) => setSelected(keys as string[]) }
    : false;

  const importModal = importing && (
    <BaseImportModal
      entity={entity}
      entityName={options.entityName}
      onClose={() => setImporting(false)}
    />
  );

  return { can, deleteButton, toolbar, rowSelection, importModal } as const;
}
