import { DeleteOutlined, PlusOutlined, SearchOutlined, UploadOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import type { TOnlineField, TOnlineFormMeta, TOnlineRecord } from '@blrms/contracts';
import {
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Popconfirm,
  Result,
  Select,
  Space,
  Spin,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { ExportButton } from '../../shared/ExportButton';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { DevicePicker, DictSelect, FileLink, LocationSelect } from './FieldInput';
import {
  cellText,
  fieldLabel,
  formName,
  listedFields,
  searchFields,
  searchOf,
  sortColumns,
  type SearchFormValue,
} from './form-fields';
import { RecordFormModal } from './RecordFormModal';
import { RecordHistoryDrawer } from './RecordHistoryDrawer';
import { RecordImportModal } from './RecordImportModal';
import {
  RECORDS_KEY,
  recordApi,
  useFormMeta,
  useRecords,
  type RecordParams,
} from './use-online-forms';
import './online-form.css';

const DEFAULT_PARAMS: RecordParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

/** One search input of the bar, by the field's type. */
function SearchInput({ field }: { field: TOnlineField }) {
  const { t, i18n } = useTranslation();
  const label = fieldLabel(field, i18n.language);
  const testId = `online-search-${field.key}`;
  switch (field.type) {
    case 'number':
      return (
        <Space.Compact>
          <Form.Item name={[field.key, 'from']} noStyle>
            <InputNumber placeholder={t('onlineForm.record.from')} data-testid={`${testId}-from`} />
          </Form.Item>
          <Form.Item name={[field.key, 'to']} noStyle>
            <InputNumber placeholder={t('onlineForm.record.to')} data-testid={`${testId}-to`} />
          </Form.Item>
        </Space.Compact>
      );
    case 'date':
    case 'datetime':
      return (
        <Form.Item name={field.key} noStyle>
          <DatePicker.RangePicker allowEmpty={[true, true]} data-testid={testId} />
        </Form.Item>
      );
    case 'switch':
      return (
        <Form.Item name={field.key} noStyle>
          <Select
            allowClear
            style={{ minWidth: 100 }}
            options={[
              { value: true, label: t('onlineForm.yes') },
              { value: false, label: t('onlineForm.no') },
            ]}
            data-testid={testId}
          />
        </Form.Item>
      );
    case 'select':
      return (
        <Form.Item name={field.key} noStyle>
          <DictSelect dictCode={field.dictCode} testId={testId} placeholder={label} />
        </Form.Item>
      );
    case 'device':
      return (
        <Form.Item name={field.key} noStyle>
          <DevicePicker testId={testId} />
        </Form.Item>
      );
    case 'location':
      return (
        <Form.Item name={field.key} noStyle>
          <LocationSelect testId={testId} />
        </Form.Item>
      );
    default:
      return (
        <Form.Item name={field.key} noStyle>
          <Input allowClear placeholder={label} data-testid={testId} />
        </Form.Item>
      );
  }
}

/** The search bar: one input per searchable field, and search / reset. */
function SearchBar({
  fields,
  onSearch,
}: {
  fields: readonly TOnlineField[];
  onSearch: (values: Record<string, SearchFormValue>) => void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<Record<string, SearchFormValue>>();
  if (fields.length === 0) return null;
  return (
    <Form
      form={form}
      layout="inline"
      className="online-search"
      onFinish={onSearch}
      data-testid="online-search"
    >
      {fields.map((field) => (
        <Form.Item key={field.key} label={fieldLabel(field, i18n.language)}>
          <SearchInput field={field} />
        </Form.Item>
      ))}
      <Form.Item>
        <Space>
          <Button
            type="primary"
            htmlType="submit"
            icon={<SearchOutlined />}
            data-testid="online-search-submit"
          >
            {t('onlineForm.record.search')}
          </Button>
          <Button
            onClick={() => {
              form.resetFields();
              onSearch({});
            }}
            data-testid="online-search-reset"
          >
            {t('onlineForm.record.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}

/** The list of one form's records, once its definition is known. */
function RecordList({ form }: { form: TOnlineFormMeta }) {
  const { t, i18n } = useTranslation();
  const narrow = useNarrowScreen();
  const { code, fields, access } = form;
  const list = useListPage<RecordParams>({
    defaults: DEFAULT_PARAMS,
    sort: { columns: sortColumns(fields), fallback: 'createTime' },
  });
  const records = useRecords(code, list.params);
  const [editing, setEditing] = useState<TOnlineRecord | null | undefined>(undefined);
  const [history, setHistory] = useState<TOnlineRecord | null>(null);
  const [importOpen, setImportOpen] = useState(false);
  const [selected, setSelected] = useState<string[]>([]);
  const remove = useEntityMutation({
    mutationFn: (ids: string[]) =>
      ids.length === 1 && ids[0]
        ? recordApi.delete(code, ids[0])
        : recordApi.deleteBatch(code, ids),
    invalidates: [[RECORDS_KEY, code]],
    successMessage: serverMessage,
  });
  const yesNo = (on: boolean) => (on ? t('onlineForm.yes') : t('onlineForm.no'));

  const fieldColumns: ProColumns<TOnlineRecord>[] = listedFields(fields).map((field) => ({
    title: fieldLabel(field, i18n.language),
    key: field.key,
    sorter: field.sortable,
    ellipsis: field.type === 'textarea',
    width: field.type === 'textarea' ? 240 : undefined,
    render: (_, row) => {
      const value = row.data[field.key];
      if (field.type === 'file' && typeof value === 'string' && !row.stale.includes(field.key)) {
        return <FileLink id={value} name={row.display[field.key] ?? value} />;
      }
      const text = cellText(field, row, yesNo);
      return row.stale.includes(field.key) ? (
        <Typography.Text type="warning">{text}</Typography.Text>
      ) : (
        text
      );
    },
  }));

  const columns: ProColumns<TOnlineRecord>[] = [
    ...fieldColumns,
    {
      title: t('onlineForm.record.updatedBy'),
      key: 'updateBy',
      width: 120,
      responsive: ['lg'],
      render: (_, row) => row.updateBy ?? row.createBy ?? '',
    },
    {
      title: t('common.updateTime'),
      key: 'updateTime',
      sorter: true,
      width: 170,
      responsive: ['md'],
      render: (_, row) => formatDateTime(row.updateTime ?? row.createTime),
    },
    {
      title: t('common.actions'),
      valueType: 'option',
      width: 180,
      fixed: narrow ? undefined : 'right',
      render: (_, row) => [
        access.edit && (
          <Button
            key="edit"
            type="link"
            size="small"
            onClick={() => setEditing(row)}
            data-testid={`online-record-edit-${row.id}`}
          >
            {t('common.edit')}
          </Button>
        ),
        <Button
          key="history"
          type="link"
          size="small"
          onClick={() => setHistory(row)}
          data-testid={`online-record-history-${row.id}`}
        >
          {t('onlineForm.history.open')}
        </Button>,
        access.delete && (
          <Popconfirm
            key="delete"
            title={t('onlineForm.record.deleteConfirm')}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync([row.id])}
          >
            <Button type="link" size="small" danger data-testid={`online-record-delete-${row.id}`}>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        ),
      ],
    },
  ];

  return (
    <>
      <SearchBar
        fields={searchFields(fields)}
        onSearch={(values) => {
          const search = searchOf(fields, values);
          list.setParams((p) => ({
            ...p,
            pageNo: 1,
            search: search ? JSON.stringify(search) : undefined,
          }));
        }}
      />
      <ProTable<TOnlineRecord>
        rowKey="id"
        {...list.tableProps(records)}
        columns={columns}
        search={false}
        headerTitle={formName(form, i18n.language)}
        scroll={{ x: 'max-content' }}
        rowSelection={
          access.delete
            ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as string[]) }
            : false
        }
        tableAlertRender={false}
        toolBarRender={() => [
          access.delete && selected.length > 0 && (
            <Popconfirm
              key="batch"
              title={t('onlineForm.record.deleteSelectedConfirm', { count: selected.length })}
              okText={t('common.ok')}
              cancelText={t('common.cancel')}
              onConfirm={async () => {
                await remove.mutateAsync(selected);
                setSelected([]);
              }}
            >
              <Button danger icon={<DeleteOutlined />} data-testid="online-record-delete-selected">
                {t('common.batchDelete')}
              </Button>
            </Popconfirm>
          ),
          access.export && (
            <ExportButton
              key="export"
              formats={['xlsx', 'csv'] as const}
              label={t('onlineForm.record.export')}
              formatLabel={(format) => format.toUpperCase()}
              onExport={(format) =>
                recordApi.export(code, format, {
                  column: list.params.column,
                  order: list.params.order,
                  search: list.params.search,
                })
              }
              testId="online-record-export"
            />
          ),
          access.add && (
            <Button
              key="import"
              icon={<UploadOutlined />}
              onClick={() => setImportOpen(true)}
              data-testid="online-record-import"
            >
              {t('onlineForm.import.open')}
            </Button>
          ),
          access.add && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing(null)}
              data-testid="online-record-add"
            >
              {t('common.add')}
            </Button>
          ),
        ]}
        data-testid="online-record-table"
      />
      {editing !== undefined && (
        <RecordFormModal form={form} record={editing} onClose={() => setEditing(undefined)} />
      )}
      {history && (
        <RecordHistoryDrawer form={form} record={history} onClose={() => setHistory(null)} />
      )}
      {importOpen && <RecordImportModal form={form} onClose={() => setImportOpen(false)} />}
    </>
  );
}

function FormRecords({ code }: { code: string }) {
  const { t } = useTranslation();
  const meta = useFormMeta(code);
  if (meta.isPending) return <Spin style={{ display: 'block', margin: '64px auto' }} />;
  if (!meta.data) {
    return (
      <Result
        status="404"
        title={t('onlineForm.record.missingTitle')}
        subTitle={t('onlineForm.record.missing', { code })}
        data-testid="online-form-missing"
      />
    );
  }
  return <RecordList form={meta.data} />;
}

/**
 * 在线表单 records: one page for every published form. The menu gives each form its route
 * (`/online/data/{code}`), so the page reads the form's code from the URL's last segment.
 */
export default function FormRecordsPage() {
  const { pathname } = useLocation();
  const code = decodeURIComponent(pathname.split('/').filter(Boolean).pop() ?? '');
  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="online-records-page">
      {/* One instance per form: switching forms keeps no list state from the other. */}
      <FormRecords key={code} code={code} />
    </Card>
  );
}
