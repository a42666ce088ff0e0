import { PlusOutlined } from '@ant-design/icons';
import type { ProColumns } from '@ant-design/pro-components';
import { ProTable } from '@ant-design/pro-components';
import type { TAlarmConditionType, TAlarmRule, TAlarmSeverity } from '@blrms/contracts';
import { ALARM_CONDITION_TYPES, ALARM_SEVERITIES } from '@blrms/contracts';
import { Button, Popconfirm, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import { ALARM_RULES_KEY, ALARMS_KEY, alarmApi, useAlarmRules, type RuleParams } from './alarm-api';
import { AlarmRuleModal } from './AlarmRuleModal';
import { AlarmSeverityTag } from './AlarmTags';
import { conditionText, scopeText } from './rule-text';

type Search = {
  name?: string;
  severity?: TAlarmSeverity;
  conditionType?: TAlarmConditionType;
  enabled?: 'true' | 'false';
};

const DEFAULT_PARAMS: RuleParams = { pageNo: 1, pageSize: 10, order: 'desc' };

/** 告警规则 (issue 19): the company's alarm rules, switched on and off in the list. */
export default function AlarmRuleListPage() {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const list = useListPage<RuleParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      name: values.name?.trim() || undefined,
      severity: values.severity,
      conditionType: values.conditionType,
      enabled: values.enabled,
    }),
  });
  const rules = useAlarmRules(list.params);
  const [editing, setEditing] = useState<TAlarmRule | null | undefined>(undefined);
  const can = {
    add: useHasAction('alarm:rule:add'),
    edit: useHasAction('alarm:rule:edit'),
    delete: useHasAction('alarm:rule:delete'),
  };
  // Disabling or deleting a rule clears its open alarms.
  const invalidates = [ALARM_RULES_KEY, ALARMS_KEY];
  const enable = useEntityMutation({
    mutationFn: ({ id, enabled }: { id: string; enabled: boolean }) =>
      alarmApi.enableRule(id, enabled),
    invalidates,
    successMessage: (_, { enabled }) =>
      enabled ? t('alarm.ruleList.enableDone') : t('alarm.ruleList.disableDone'),
  });
  const remove = useEntityMutation({
    mutationFn: (id: string) => alarmApi.deleteRule(id),
    invalidates,
    successMessage: serverMessage,
  });

  const columns: ProColumns<TAlarmRule>[] = [
    {
      title: t('alarm.ruleList.name'),
      dataIndex: 'name',
      width: 180,
      fixed: narrow ? undefined : 'left',
      render: (_, row) => (
        <Space direction="vertical" size={0}>
          <Typography.Text strong data-testid="alarm-rule-row-name">
            {row.name}
          </Typography.Text>
          {row.description && <Typography.Text type="secondary">{row.description}</Typography.Text>}
        </Space>
      ),
    },
    {
      title: t('alarm.ruleList.enabled'),
      dataIndex: 'enabled',
      width: 80,
      valueType: 'select',
      fieldProps: {
        options: [
          { value: 'true', label: t('common.enabled') },
          { value: 'false', label: t('common.disabled') },
        ],
      },
      render: (_, row) => (
        <Switch
          size="small"
          checked={row.enabled}
          disabled={!can.edit}
          loading={enable.isPending && enable.variables?.id === row.id}
          onChange={(enabled) => enable.mutate({ id: row.id, enabled })}
          data-testid={`alarm-rule-enabled-${row.name}`}
        />
      ),
    },
    {
      title: t('alarm.severity'),
      dataIndex: 'severity',
      width: 90,
      valueType: 'select',
      fieldProps: {
        options: ALARM_SEVERITIES.map((s) => ({ value: s, label: t(`alarm.severities.${s}`) })),
      },
      render: (_, row) => <AlarmSeverityTag severity={row.severity} />,
    },
    {
      title: t('alarm.ruleList.condition'),
      dataIndex: 'conditionType',
      width: 220,
      valueType: 'select',
      fieldProps: {
        options: ALARM_CONDITION_TYPES.map((c) => ({
          value: c,
          label: t(`alarm.conditionTypes.${c}`),
        })),
      },
      render: (_, row) =>
        row.condition.type === 'config-failed' || row.condition.type === 'upgrade-failed' ? (
          t(`alarm.conditionTypes.${row.condition.type}`)
        ) : (
          <Space direction="vertical" size={0}>
            <span>{t(`alarm.conditionTypes.${row.condition.type}`)}</span>
            <Typography.Text type="secondary">{conditionText(t, row.condition)}</Typography.Text>
          </Space>
        ),
    },
    {
      title: t('alarm.ruleList.scope'),
      key: 'scope',
      width: 180,
      hideInSearch: true,
      ellipsis: true,
      render: (_, row) => scopeText(t, row),
    },
    {
      title: t('alarm.ruleList.notify'),
      key: 'notify',
      width: 170,
      hideInSearch: true,
      render: (_, row) =>
        row.notify.channels.length > 0
          ? row.notify.channels.map((c) => t(`alarm.form.channelNames.${c}`)).join(', ')
          : t('alarm.ruleList.nobody'),
    },
    {
      title: t('alarm.ruleList.openAlarms'),
      dataIndex: 'openAlarms',
      width: 100,
      align: 'right',
      hideInSearch: true,
      render: (_, row) =>
        row.openAlarms > 0 ? (
          <Link to={`/alarm/list?ruleId=${row.id}&state=active,acknowledged`}>
            {row.openAlarms}
          </Link>
        ) : (
          0
        ),
    },
    {
      title: t('common.updateTime'),
      key: 'updateTime',
      width: 170,
      hideInSearch: true,
      render: (_, row) => formatDateTime(row.updateTime ?? row.createTime),
    },
    {
      title: t('common.actions'),
      valueType: 'option',
      width: 130,
      fixed: narrow ? undefined : 'right',
      render: (_, row) => [
        can.edit && (
          <Button
            key="edit"
            type="link"
            size="small"
            onClick={() => setEditing(row)}
            data-testid={`alarm-rule-edit-${row.name}`}
          >
            {t('common.edit')}
          </Button>
        ),
        can.delete && (
          <Popconfirm
            key="delete"
            title={t('alarm.ruleList.deleteConfirm', { name: row.name })}
            okText={t('common.delete')}
            okButtonProps={{ danger: true }}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id)}
          >
            <Button type="link" size="small" danger data-testid={`alarm-rule-delete-${row.name}`}>
              {t('common.delete')}
            </Button>
          </Popconfirm>
        ),
      ],
    },
  ];

  return (
    <>
      <ProTable<TAlarmRule, Search>
        rowKey="id"
        headerTitle={t('alarm.ruleList.title')}
        {...list.tableProps(rules)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: true }}
        scroll={{ x: 1300 }}
        toolBarRender={() => [
          can.add && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing(null)}
              data-testid="alarm-rule-add"
            >
              {t('alarm.ruleList.add')}
            </Button>
          ),
        ]}
        data-testid="alarm-rule-table"
      />
      {editing !== undefined && (
        <AlarmRuleModal rule={editing} onClose={() => setEditing(undefined)} />
      )}
    </>
  );
}
