import { PlusOutlined } from '@ant-design/icons';
import { ProTable, type ProColumns } from '@ant-design/pro-components';
import {
  ONLINE_FORM_SORT_COLUMNS,
  ZOnlineFormListQuery,
  onlineFormPageUrl,
  type TOnlineForm,
} from '@blrms/contracts';
import { Button, Card, Popconfirm, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime, formatNumber } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { formName } from './form-fields';
import { FormDesignerModal } from './FormDesignerModal';
import {
  FORMS_KEY,
  MENU_KEY,
  RECORDS_KEY,
  formApi,
  useForms,
  type FormParams,
} from './use-online-forms';
import './online-form.css';

type Search = { name?: string; status?: TOnlineForm['status'] };

const DEFAULT_PARAMS: FormParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

/**
 * 表单定义: the forms a company defines. Publishing one adds its list page to the menu, with its
 * own permission codes (online:{code}:list|add|edit|delete|export) that roles grant like any page.
 */
export default function FormListPage() {
  const { t, i18n } = useTranslation();
  const narrow = useNarrowScreen();
  const list = useListPage<FormParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({ name: values.name?.trim() || undefined, status: values.status }),
    sort: { columns: ONLINE_FORM_SORT_COLUMNS, fallback: 'createTime', cleared: 'column' },
    url: ZOnlineFormListQuery,
  });
  const forms = useForms(list.params);
  const [editing, setEditing] = useState<TOnlineForm | null | undefined>(undefined);
  const canAdd = useHasAction('online:form:add');
  const canEdit = useHasAction('online:form:edit');
  const canDelete = useHasAction('online:form:delete');
  const canPublish = useHasAction('online:form:publish');

  const remove = useEntityMutation({
    mutationFn: (id: string) => formApi.delete(id),
    invalidates: [[FORMS_KEY]],
    successMessage: serverMessage,
  });
  // The menu lists published forms, and a published form's page reads its definition.
  const publishing = useEntityMutation({
    mutationFn: ({ id, publish }: { id: string; publish: boolean }) =>
      publish ? formApi.publish(id) : formApi.unpublish(id),
    invalidates: [[FORMS_KEY], [MENU_KEY], [RECORDS_KEY]],
    successMessage: serverMessage,
  });

  const columns: ProColumns<TOnlineForm>[] = [
    {
      title: t('onlineForm.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      render: (_, row) =>
        row.status === 'published' ? (
          <Link to={onlineFormPageUrl(row.code)}>{formName(row, i18n.language)}</Link>
        ) : (
          formName(row, i18n.language)
        ),
    },
    {
      title: t('onlineForm.code'),
      dataIndex: 'code',
      key: 'code',
      sorter: true,
      hideInSearch: true,
      render: (_, row) => <Typography.Text code>{row.code}</Typography.Text>,
    },
    {
      title: t('onlineForm.status'),
      dataIndex: 'status',
      valueType: 'select',
      valueEnum: {
        draft: { text: t('onlineForm.statusDraft') },
        published: { text: t('onlineForm.statusPublished') },
      },
      width: 110,
      render: (_, row) => (
        <Tag
          color={row.status === 'published' ? 'green' : 'default'}
          data-testid={`online-form-status-${row.code}`}
        >
          {row.status === 'published'
            ? t('onlineForm.statusPublished')
            : t('onlineForm.statusDraft')}
        </Tag>
      ),
    },
    {
      title: t('onlineForm.fieldCount'),
      hideInSearch: true,
      width: 90,
      align: 'right',
      render: (_, row) => formatNumber(row.fields.length),
    },
    {
      title: t('onlineForm.records'),
      hideInSearch: true,
      width: 90,
      align: 'right',
      responsive: ['md'],
      render: (_, row) => formatNumber(row.records),
    },
    {
      title: t('common.updateTime'),
      hideInSearch: true,
      width: 170,
      responsive: ['lg'],
      render: (_, row) => formatDateTime(row.updateTime ?? row.createTime),
    },
    {
      title: t('common.actions'),
      valueType: 'option',
      width: 250,
      fixed: narrow ? undefined : 'right',
      render: (_, row) => [
        canEdit && (
          <Button
            key="edit"
            type="link"
            size="small"
            onClick={() => setEditing(row)}
            data-testid={`online-form-edit-${row.code}`}
          >
            {t('onlineForm.design')}
          </Button>
        ),
        canPublish && (
          <Popconfirm
            key="publish"
            title={
              row.status === 'published'
                ? t('onlineForm.unpublishConfirm')
                : t('onlineForm.publishConfirm')
            }
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() =>
              publishing.mutateAsync({ id: row.id, publish: row.status !== 'published' })
            }
          >
            <Button type="link" size="small" data-testid={`online-form-publish-${row.code}`}>
              {row.status === 'published' ? t('onlineForm.unpublish') : t('onlineForm.publish')}
            </Button>
          </Popconfirm>
        ),
        canDelete && (
          <Popconfirm
            key="delete"
            title={t('onlineForm.deleteConfirm', { name: formName(row, i18n.language) })}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id)}
          >
            <Button type="link" size="small" danger data-testid={`online-form-delete-${row.code}`}>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        ),
      ],
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="online-forms-page">
      <ProTable<TOnlineForm, Search>
        rowKey="id"
        {...list.tableProps(forms)}
        columns={list.withSortOrder(columns)}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        scroll={{ x: 760 }}
        toolBarRender={() => [
          canAdd && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing(null)}
              data-testid="online-form-add"
            >
              {t('onlineForm.add')}
            </Button>
          ),
        ]}
        data-testid="online-form-table"
      />
      {editing !== undefined && (
        <FormDesignerModal form={editing} onClose={() => setEditing(undefined)} />
      )}
    </Card>
  );
}
