import { ModalForm, ProFormRadio, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import type { TDataRule, TPermissionDataRule, TPermissionNode } from '@blrms/contracts';
import {
  DATA_RULE_COLUMNS,
  DATA_RULE_OPERATORS,
  DATA_RULE_VARIABLES,
  ZPermissionRuleAdd,
} from '@blrms/contracts';
import {
  Alert,
  AutoComplete,
  Button,
  Drawer,
  Form,
  Popconfirm,
  Space,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { zodRules } from '../../shared/entity/zod-rules';
import { usePermissionMutations, usePermissionRules } from './use-permissions';

/** Columns a rule of this permission may use: the union over its perms codes (contracts whitelist). */
export function ruleColumnsOf(perms: string | null): string[] {
  const whitelist: Record<string, readonly string[]> = DATA_RULE_COLUMNS;
  const codes = (perms ?? '').split(',').map((c) => c.trim());
  return [...new Set(codes.flatMap((c) => whitelist[c] ?? []))];
}

type Props = { permission: TPermissionNode | null; editable: boolean; onClose: () => void };

/** The data rules defined on one permission; roles then choose which of them their grant carries. */
export function DataRuleDrawer({ permission, editable, onClose }: Props) {
  const { t, i18n } = useTranslation();
  const rules = usePermissionRules(permission?.id ?? null);
  const { saveRule, removeRule } = usePermissionMutations();
  const [form, setForm] = useState<{ open: boolean; editing: TPermissionDataRule | null }>({
    open: false,
    editing: null,
  });
  const columns = ruleColumnsOf(permission?.perms ?? null);
  const title = permission
    ? (i18n.language === 'en-US' && permission.nameEn) || permission.name
    : '';

  return (
    <Drawer
      title={t('permissionAdmin.dataRulesOf', { name: title })}
      open={permission !== null}
      width="min(720px, 100vw)"
      onClose={onClose}
      destroyOnHidden
      extra={
        editable &&
        columns.length > 0 && (
          <Button
            type="primary"
            onClick={() => setForm({ open: true, editing: null })}
            data-testid="rule-add"
          >
            {t('permissionAdmin.addRule')}
          </Button>
        )
      }
      data-testid="data-rule-drawer"
    >
      {columns.length === 0 ? (
        <Alert type="info" showIcon message={t('permissionAdmin.noRuleColumns')} />
      ) : (
        <Typography.Paragraph type="secondary">
          {t('permissionAdmin.ruleColumnsHint', { columns: columns.join(', ') })}
        </Typography.Paragraph>
      )}
      <Table<TPermissionDataRule>
        rowKey="id"
        size="small"
        loading={rules.isFetching}
        dataSource={rules.data ?? []}
        pagination={false}
        scroll={{ x: 560 }}
        columns={[
          { title: t('permissionAdmin.ruleName'), dataIndex: 'ruleName' },
          { title: t('permissionAdmin.ruleColumn'), dataIndex: 'ruleColumn' },
          {
            title: t('permissionAdmin.ruleConditions'),
            dataIndex: 'ruleConditions',
            render: (op: string) => t(`permissionAdmin.op.${op}` as 'permissionAdmin.op.EQ'),
          },
          { title: t('permissionAdmin.ruleValue'), dataIndex: 'ruleValue' },
          {
            title: t('permissionAdmin.status'),
            dataIndex: 'status',
            render: (s: string) =>
              s === '1' ? (
                <Tag color="success">{t('permissionAdmin.ruleOn')}</Tag>
              ) : (
                <Tag>{t('permissionAdmin.ruleOff')}</Tag>
              ),
          },
          ...(editable
            ? [
                {
                  title: t('permissionAdmin.actions'),
                  key: 'actions',
                  render: (_: unknown, row: TPermissionDataRule) => (
                    <Space size="small">
                      <a onClick={() => setForm({ open: true, editing: row })}>
                        {t('permissionAdmin.edit')}
                      </a>
                      <Popconfirm
                        title={t('permissionAdmin.deleteRuleConfirm')}
                        onConfirm={() => removeRule.mutate(row.id)}
                      >
                        <a>{t('permissionAdmin.delete')}</a>
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      {permission && (
        <ModalForm<TDataRule>
          key={form.editing?.id ?? 'new'}
          title={form.editing ? t('permissionAdmin.editRule') : t('permissionAdmin.addRule')}
          open={form.open}
          width={520}
          modalProps={{
            destroyOnHidden: true,
            onCancel: () => setForm({ open: false, editing: null }),
          }}
          initialValues={
            form.editing ?? { ruleConditions: 'EQ', status: '1', ruleColumn: columns[0] }
          }
          onFinish={async (values) => {
            const rule = {
              ruleName: values.ruleName.trim(),
              ruleColumn: values.ruleColumn,
              ruleConditions: values.ruleConditions,
              ruleValue: values.ruleValue ?? '',
              status: values.status,
            };
            await saveRule.mutateAsync(
              form.editing
                ? { ...rule, id: form.editing.id }
                : { ...rule, permissionId: permission.id },
            );
            setForm({ open: false, editing: null });
            return true;
          }}
          data-testid="rule-form"
        >
          <ProFormText
            name="ruleName"
            label={t('permissionAdmin.ruleName')}
            rules={zodRules(ZPermissionRuleAdd, 'ruleName', {
              required: t('permissionAdmin.ruleNameRequired'),
            })}
            fieldProps={{ id: 'rule-name' }}
          />
          <ProFormSelect
            name="ruleColumn"
            label={t('permissionAdmin.ruleColumn')}
            rules={zodRules(ZPermissionRuleAdd, 'ruleColumn')}
            options={columns.map((c) => ({ value: c, label: c }))}
            fieldProps={{ id: 'rule-column' }}
          />
          <ProFormSelect
            name="ruleConditions"
            label={t('permissionAdmin.ruleConditions')}
            rules={zodRules(ZPermissionRuleAdd, 'ruleConditions')}
            options={DATA_RULE_OPERATORS.map((op) => ({
              value: op,
              label: t(`permissionAdmin.op.${op}`),
            }))}
            fieldProps={{ id: 'rule-conditions' }}
          />
          <Form.Item
            name="ruleValue"
            label={t('permissionAdmin.ruleValue')}
            rules={zodRules(ZPermissionRuleAdd, 'ruleValue')}
            tooltip={t('permissionAdmin.ruleValueHint')}
          >
            <AutoComplete
              id="rule-value"
              options={DATA_RULE_VARIABLES.map((v) => ({ value: v, label: v }))}
            />
          </Form.Item>
          <ProFormRadio.Group
            name="status"
            label={t('permissionAdmin.status')}
            options={[
              { value: '1', label: t('permissionAdmin.ruleOn') },
              { value: '0', label: t('permissionAdmin.ruleOff') },
            ]}
          />
        </ModalForm>
      )}
    </Drawer>
  );
}
