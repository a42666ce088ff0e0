import { ProTable, type ProColumns } from '@ant-design/pro-components';
import { CHECK_RULE_SORT_COLUMNS, type TCheckRule } from '@blrms/contracts';
import { useMutation } from '@tanstack/react-query';
import { Button, Card, Input, Modal, Popconfirm, Space, Tag, Typography } from 'antd';
import { PlusOutlined, SettingOutlined } from '@ant-design/icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { checkRuleApi } from '../../api/account';
import { ApiError } from '../../api/errors';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { useListPage } from '../../shared/entity/use-list-page';
import { formatDateTime } from '../../shared/format';
import { useHasAction } from '../../shared/permission/use-has-action';
import { CheckRuleModal } from './CheckRuleModal';
import { SmsSettingsModal } from './SmsSettingsModal';
import { CHECK_RULES_KEY, useCheckRules, type CheckRuleParams } from './use-check-rules';
import './check-rule.css';

type Search = { ruleCode?: string; ruleName?: string };

const DEFAULT_PARAMS: CheckRuleParams = {
  pageNo: 1,
  pageSize: 10,
  column: 'createTime',
  order: 'desc',
};

/** 编码校验规则: the rules `/sys/checkRule/checkByCode` applies, kept by platform administrators. */
export default function CheckRuleListPage() {
  const { t, i18n } = useTranslation();
  const list = useListPage<CheckRuleParams, Search>({
    defaults: DEFAULT_PARAMS,
    filters: (values) => ({
      ruleCode: values.ruleCode?.trim() || undefined,
      ruleName: values.ruleName?.trim() || undefined,
    }),
    sort: { columns: CHECK_RULE_SORT_COLUMNS, fallback: 'createTime', cleared: 'column' },
  });
  const [editing, setEditing] = useState<TCheckRule | null | undefined>(undefined);
  const [testing, setTesting] = useState<TCheckRule | null>(null);
  const [smsOpen, setSmsOpen] = useState(false);
  const rules = useCheckRules(list.params);
  const canAdd = useHasAction('system:checkrule:add');
  const canEdit = useHasAction('system:checkrule:edit');
  const canDelete = useHasAction('system:checkrule:delete');
  const canSms = useHasAction('system:setting:sms');
  const en = i18n.language === 'en-US';

  const remove = useEntityMutation({
    mutationFn: (id: string) => checkRuleApi.delete(id),
    invalidates: [[CHECK_RULES_KEY]],
    successMessage: serverMessage,
  });

  const columns: ProColumns<TCheckRule>[] = [
    {
      title: t('checkRule.ruleCode'),
      dataIndex: 'ruleCode',
      key: 'ruleCode',
      sorter: true,
      width: 160,
      render: (_, row) => <Typography.Text code>{row.ruleCode}</Typography.Text>,
    },
    {
      title: t('checkRule.ruleName'),
      dataIndex: 'ruleName',
      key: 'ruleName',
      sorter: true,
      width: 180,
    },
    {
      title: t('checkRule.rules'),
      dataIndex: 'rules',
      hideInSearch: true,
      render: (_, row) => (
        <Space direction="vertical" size={2}>
          {row.rules.map((item, i) => (
            <span key={i}>
              <Typography.Text code>{item.pattern}</Typography.Text>{' '}
              <Typography.Text type="secondary">
                {en ? item.messageEn : item.message}
              </Typography.Text>
            </span>
          ))}
        </Space>
      ),
    },
    {
      title: t('checkRule.createTime'),
      dataIndex: 'createTime',
      key: 'createTime',
      sorter: true,
      defaultSortOrder: 'descend',
      hideInSearch: true,
      width: 180,
      render: (_, row) => formatDateTime(row.createTime),
    },
    {
      title: t('checkRule.actions'),
      valueType: 'option',
      width: 200,
      render: (_, row) => [
        <Button
          key="test"
          type="link"
          size="small"
          onClick={() => setTesting(row)}
          data-testid={`check-rule-test-${row.ruleCode}`}
        >
          {t('checkRule.test')}
        </Button>,
        canEdit && (
          <Button
            key="edit"
            type="link"
            size="small"
            onClick={() => setEditing(row)}
            data-testid={`check-rule-edit-${row.ruleCode}`}
          >
            {t('checkRule.editShort')}
          </Button>
        ),
        canDelete && (
          <Popconfirm
            key="delete"
            title={t('checkRule.deleteConfirm', { code: row.ruleCode })}
            okText={t('common.ok')}
            cancelText={t('common.cancel')}
            onConfirm={() => remove.mutateAsync(row.id)}
          >
            <Button
              type="link"
              size="small"
              danger
              data-testid={`check-rule-delete-${row.ruleCode}`}
            >
              {t('checkRule.delete')}
            </Button>
          </Popconfirm>
        ),
      ],
    },
  ];

  return (
    <Card styles={{ body: { padding: 0 } }} data-testid="check-rule-page">
      <ProTable<TCheckRule, Search>
        rowKey="id"
        {...list.tableProps(rules)}
        columns={columns}
        search={{ labelWidth: 'auto', defaultCollapsed: false }}
        scroll={{ x: 900 }}
        toolBarRender={() => [
          canSms && (
            <Button
              key="sms"
              icon={<SettingOutlined />}
              onClick={() => setSmsOpen(true)}
              data-testid="sms-settings-open"
            >
              {t('checkRule.smsTitle')}
            </Button>
          ),
          canAdd && (
            <Button
              key="add"
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setEditing(null)}
              data-testid="check-rule-add"
            >
              {t('checkRule.add')}
            </Button>
          ),
        ]}
        data-testid="check-rule-table"
      />
      {editing !== undefined && (
        <CheckRuleModal rule={editing} onClose={() => setEditing(undefined)} />
      )}
      {testing && <RuleTester rule={testing} onClose={() => setTesting(null)} />}
      {smsOpen && <SmsSettingsModal onClose={() => setSmsOpen(false)} />}
    </Card>
  );
}

/** Tries a value against a saved rule through the same call the forms use. */
function RuleTester({ rule, onClose }: { rule: TCheckRule; onClose: () => void }) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const check = useMutation({
    mutationFn: () => checkRuleApi.checkByCode(rule.ruleCode, value),
    onSuccess: ({ message: text }) => setOutcome({ ok: true, text }),
    onError: (e) => setOutcome({ ok: false, text: e instanceof ApiError ? e.message : String(e) }),
  });
  return (
    <Modal
      open
      title={t('checkRule.testTitle', { code: rule.ruleCode })}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <Space.Compact block>
        <Input
          value={value}
          onChange={(e) => {
            setValue(e.target.value);
            setOutcome(null);
          }}
          onPressEnter={() => check.mutate()}
          placeholder={t('checkRule.testValue')}
          data-testid="check-rule-test-value"
        />
        <Button
          type="primary"
          loading={check.isPending}
          onClick={() => check.mutate()}
          data-testid="check-rule-test-run"
        >
          {t('checkRule.test')}
        </Button>
      </Space.Compact>
      {outcome && (
        <Tag
          color={outcome.ok ? 'success' : 'error'}
          className="check-rule-test__outcome"
          data-testid="check-rule-test-outcome"
        >
          {outcome.text}
        </Tag>
      )}
    </Modal>
  );
}
