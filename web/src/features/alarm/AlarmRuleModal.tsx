import type { TAlarmRule, TAlarmRuleInput, TDepartTreeNode } from '@blrms/contracts';
import {
  ALARM_CONDITION_TYPES,
  ALARM_DURATION_MAX_SEC,
  ALARM_OFFLINE_MAX_MINUTES,
  ALARM_REMINDER_MAX_MINUTES,
  ALARM_REMINDER_MIN_MINUTES,
  ALARM_SEVERITIES,
  ALARM_TARGETS_MAX,
  DEVICE_SERIES,
  MESSAGE_CHANNELS,
  TELEMETRY_KEY,
} from '@blrms/contracts';
import type { ButtonProps, FormInstance } from 'antd';
import {
  Alert,
  Checkbox,
  Col,
  Divider,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Switch,
  Tag,
  TimePicker,
  TreeSelect,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { submitForm } from '../../shared/field-errors';
import { useNarrowScreen } from '../../shared/use-narrow-screen';
import {
  ALARM_RULES_KEY,
  alarmApi,
  searchDevices,
  useGroupOptions,
  useNotifyTargets,
} from './alarm-api';
import type { RuleFormValues } from './rule-form';
import { ruleFormValues, ruleInputOf } from './rule-form';
import './alarm.css';

/** The message template's variables (ZAlarmMessageTexts). */
const VARIABLES = [
  'device',
  'sn',
  'rule',
  'severity',
  'value',
  'key',
  'threshold',
  'low',
  'high',
  'duration',
  'code',
  'minutes',
  'reason',
] as const;

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

function zones(): string[] {
  const all = (Intl as { supportedValuesOf?: (key: string) => string[] }).supportedValuesOf;
  return all ? all('timeZone') : ['UTC', browserZone()];
}

/** A quiet-hours clock kept as `HH:mm` in the form, shown in a time picker. */
const clockProps = {
  getValueProps: (value?: string) => {
    const [h, m] = (value ?? '').split(':').map(Number);
    return {
      value: value
        ? dayjs()
            .hour(h ?? 0)
            .minute(m ?? 0)
        : undefined,
    };
  },
  normalize: (value: Dayjs | null) => (value ? value.format('HH:mm') : undefined),
};

type TreeNode = { value: string; title: string; children: TreeNode[] };
const toTree = (departs: TDepartTreeNode[]): TreeNode[] =>
  departs.map((d) => ({ value: d.id, title: d.title, children: toTree(d.children) }));

/** Add or edit an alarm rule: its devices, condition, message, notifications and quiet hours. */
export function AlarmRuleModal({
  rule,
  onClose,
}: {
  rule: TAlarmRule | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [form] = Form.useForm<RuleFormValues>();
  const narrow = useNarrowScreen();
  const initial = useMemo(() => ruleFormValues(rule, browserZone()), [rule]);
  const scopeKind = Form.useWatch(['scope', 'kind'], form) ?? initial.scope.kind;
  const type = Form.useWatch(['condition', 'type'], form) ?? initial.condition.type;
  const operator = Form.useWatch(['condition', 'operator'], form) ?? initial.condition.operator;
  const quiet = Form.useWatch('quiet', form) ?? initial.quiet;
  const remind = Form.useWatch('remind', form) ?? initial.remind;
  const groups = useGroupOptions(scopeKind === 'group');
  const targets = useNotifyTargets(true, i18n.language === 'en-US');
  const zoneOptions = useMemo(() => zones().map((z) => ({ value: z, label: z })), []);
  const deviceOption = useMemo(
    () =>
      rule?.scope.kind === 'device'
        ? { value: rule.scope.deviceId, label: rule.scopeLabel ?? '' }
        : undefined,
    [rule],
  );

  const save = useEntityMutation({
    mutationFn: (input: TAlarmRuleInput) =>
      rule ? alarmApi.editRule({ ...input, id: rule.id }) : alarmApi.addRule(input),
    invalidates: [ALARM_RULES_KEY],
    successMessage: serverMessage,
  });

  const required = (field: string) => ({
    required: true,
    message: t('alarm.form.required', { field }),
  });

  const onFinish = async (values: RuleFormValues) => {
    const saved = await submitForm(form, () => save.mutateAsync(ruleInputOf(values)));
    if (saved) onClose();
  };

  const half = narrow ? 24 : 12;
  return (
    <Modal
      open
      width={760}
      title={rule ? t('alarm.ruleList.edit') : t('alarm.ruleList.add')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'alarm-rule-save' } as ButtonProps}
    >
      <Form<RuleFormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(values) => void onFinish(values)}
        data-testid="alarm-rule-form"
      >
        <Row gutter={16}>
          <Col span={narrow ? 24 : 14}>
            <Form.Item
              name="name"
              label={t('alarm.ruleList.name')}
              rules={[required(t('alarm.ruleList.name'))]}
            >
              <Input maxLength={64} data-testid="alarm-rule-name" />
            </Form.Item>
          </Col>
          <Col span={narrow ? 16 : 7}>
            <Form.Item name="severity" label={t('alarm.severity')}>
              <Select
                data-testid="alarm-rule-severity"
                options={ALARM_SEVERITIES.map((s) => ({
                  value: s,
                  label: t(`alarm.severities.${s}`),
                }))}
              />
            </Form.Item>
          </Col>
          <Col span={narrow ? 8 : 3}>
            <Form.Item name="enabled" label={t('alarm.ruleList.enabled')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>

        <Divider orientation="left" plain>
          {t('alarm.ruleList.scope')}
        </Divider>
        <Row gutter={16}>
          <Col span={half}>
            <Form.Item name={['scope', 'kind']} label={t('alarm.form.scopeKind')}>
              <Select
                data-testid="alarm-rule-scope"
                options={(['all', 'series', 'group', 'device'] as const).map((kind) => ({
                  value: kind,
                  label: t(`alarm.scopeKinds.${kind}`),
                }))}
              />
            </Form.Item>
          </Col>
          <Col span={half}>
            {scopeKind === 'series' && (
              <Form.Item
                name={['scope', 'series']}
                label={t('alarm.form.series')}
                rules={[required(t('alarm.form.series'))]}
              >
                <Select options={DEVICE_SERIES.map((s) => ({ value: s, label: s }))} />
              </Form.Item>
            )}
            {scopeKind === 'group' && (
              <Form.Item
                name={['scope', 'groupId']}
                label={t('alarm.form.group')}
                rules={[required(t('alarm.form.group'))]}
              >
                <Select
                  showSearch
                  optionFilterProp="label"
                  loading={groups.isLoading}
                  options={groups.data ?? []}
                />
              </Form.Item>
            )}
            {scopeKind === 'device' && (
              <Form.Item
                name={['scope', 'deviceId']}
                label={t('alarm.form.device')}
                rules={[required(t('alarm.form.device'))]}
              >
                <DeviceSelect initial={deviceOption} />
              </Form.Item>
            )}
          </Col>
        </Row>

        <Divider orientation="left" plain>
          {t('alarm.ruleList.condition')}
        </Divider>
        <Form.Item name={['condition', 'type']} label={t('alarm.form.conditionType')}>
          <Select
            data-testid="alarm-rule-condition"
            options={ALARM_CONDITION_TYPES.map((c) => ({
              value: c,
              label: t(`alarm.conditionTypes.${c}`),
            }))}
          />
        </Form.Item>
        {type === 'telemetry' && (
          <Row gutter={16}>
            <Col span={half}>
              <Form.Item
                name={['condition', 'key']}
                label={t('alarm.form.key')}
                extra={t('alarm.form.keyHelp')}
                rules={[
                  required(t('alarm.form.key')),
                  { pattern: TELEMETRY_KEY, message: t('alarm.form.keyHelp') },
                ]}
              >
                <Input maxLength={32} data-testid="alarm-rule-key" />
              </Form.Item>
            </Col>
            <Col span={half}>
              <Form.Item name={['condition', 'operator']} label={t('alarm.form.operator')}>
                <Select
                  data-testid="alarm-rule-operator"
                  options={(['above', 'below', 'outside'] as const).map((o) => ({
                    value: o,
                    label: t(`alarm.operators.${o}`),
                  }))}
                />
              </Form.Item>
            </Col>
            {operator === 'outside' ? (
              <>
                <Col span={narrow ? 12 : 6}>
                  <Form.Item
                    name={['condition', 'low']}
                    label={t('alarm.form.low')}
                    rules={[required(t('alarm.form.low'))]}
                  >
                    <InputNumber style={{ width: '100%' }} data-testid="alarm-rule-low" />
                  </Form.Item>
                </Col>
                <Col span={narrow ? 12 : 6}>
                  <Form.Item
                    name={['condition', 'high']}
                    label={t('alarm.form.high')}
                    dependencies={[['condition', 'low']]}
                    rules={[
                      required(t('alarm.form.high')),
                      ({ getFieldValue }) => ({
                        validator: (_, value?: number | null) => {
                          const low = getFieldValue(['condition', 'low']) as number | null;
                          return value == null || low == null || value > low
                            ? Promise.resolve()
                            : Promise.reject(new Error(t('alarm.form.highAboveLow')));
                        },
                      }),
                    ]}
                  >
                    <InputNumber style={{ width: '100%' }} data-testid="alarm-rule-high" />
                  </Form.Item>
                </Col>
              </>
            ) : (
              <Col span={half}>
                <Form.Item
                  name={['condition', 'threshold']}
                  label={t('alarm.form.threshold')}
                  rules={[required(t('alarm.form.threshold'))]}
                >
                  <InputNumber style={{ width: '100%' }} data-testid="alarm-rule-threshold" />
                </Form.Item>
              </Col>
            )}
            <Col span={half}>
              <Form.Item
                name={['condition', 'durationSec']}
                label={t('alarm.form.durationSec')}
                extra={t('alarm.form.durationHelp')}
              >
                <InputNumber
                  min={0}
                  max={ALARM_DURATION_MAX_SEC}
                  precision={0}
                  style={{ width: '100%' }}
                  data-testid="alarm-rule-duration"
                />
              </Form.Item>
            </Col>
          </Row>
        )}
        {type === 'event' && (
          <Row gutter={16}>
            <Col span={half}>
              <Form.Item
                name={['condition', 'code']}
                label={t('alarm.form.code')}
                rules={[required(t('alarm.form.code'))]}
              >
                <Input maxLength={64} />
              </Form.Item>
            </Col>
            <Col span={half}>
              <Form.Item name={['condition', 'level']} label={t('alarm.form.level')}>
                <Select
                  options={(['warn', 'alarm'] as const).map((l) => ({
                    value: l,
                    label: t(`alarm.eventLevels.${l}`),
                  }))}
                />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Typography.Paragraph type="secondary">
                {t('alarm.form.eventHelp')}
              </Typography.Paragraph>
            </Col>
          </Row>
        )}
        {type === 'offline' && (
          <Form.Item
            name={['condition', 'minutes']}
            label={t('alarm.form.minutes')}
            rules={[required(t('alarm.form.minutes'))]}
          >
            <InputNumber min={1} max={ALARM_OFFLINE_MAX_MINUTES} precision={0} />
          </Form.Item>
        )}
        {(type === 'config-failed' || type === 'upgrade-failed') && (
          <Alert type="info" showIcon message={t('alarm.form.autoHelp')} />
        )}

        <Divider orientation="left" plain>
          {t('alarm.form.messageTitle')}
        </Divider>
        <MessageFields form={form} />

        <Divider orientation="left" plain>
          {t('alarm.form.notifyTitle')}
        </Divider>
        <Form.Item name={['notify', 'channels']} label={t('alarm.form.channels')}>
          <Checkbox.Group
            data-testid="alarm-rule-channels"
            options={MESSAGE_CHANNELS.map((c) => ({
              value: c,
              label: t(`alarm.form.channelNames.${c}`),
            }))}
          />
        </Form.Item>
        {targets.limited && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('alarm.form.targetsUnavailable')}
          />
        )}
        <Row gutter={16}>
          <Col span={half}>
            <Form.Item name={['notify', 'userIds']} label={t('alarm.form.users')}>
              <Select
                mode="multiple"
                maxCount={ALARM_TARGETS_MAX}
                optionFilterProp="label"
                loading={targets.users.isLoading}
                options={targets.users.data ?? []}
                data-testid="alarm-rule-users"
              />
            </Form.Item>
          </Col>
          <Col span={half}>
            <Form.Item name={['notify', 'roleIds']} label={t('alarm.form.roles')}>
              <Select
                mode="multiple"
                maxCount={ALARM_TARGETS_MAX}
                optionFilterProp="label"
                loading={targets.roles.isLoading}
                options={targets.roles.data ?? []}
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name={['notify', 'departIds']} label={t('alarm.form.departs')}>
              <TreeSelect
                multiple
                treeDefaultExpandAll
                treeNodeFilterProp="title"
                loading={targets.departs.isLoading}
                treeData={toTree(targets.departs.data ?? [])}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name={['notify', 'onClear']} valuePropName="checked">
          <Checkbox>{t('alarm.form.onClear')}</Checkbox>
        </Form.Item>
        <Row gutter={16}>
          <Col span={half}>
            <Form.Item
              name="remind"
              label={t('alarm.form.reminder')}
              valuePropName="checked"
              extra={t('alarm.form.reminderHelp')}
            >
              <Switch data-testid="alarm-rule-remind" />
            </Form.Item>
          </Col>
          <Col span={half}>
            {remind && (
              <Form.Item
                name="reminderMinutes"
                label={t('alarm.form.reminderMinutes')}
                rules={[required(t('alarm.form.reminderMinutes'))]}
              >
                <InputNumber
                  min={ALARM_REMINDER_MIN_MINUTES}
                  max={ALARM_REMINDER_MAX_MINUTES}
                  precision={0}
                />
              </Form.Item>
            )}
          </Col>
        </Row>
        <Form.Item
          name="quiet"
          label={t('alarm.form.quietHours')}
          valuePropName="checked"
          extra={t('alarm.form.quietHelp')}
        >
          <Switch data-testid="alarm-rule-quiet" />
        </Form.Item>
        {quiet && (
          <Row gutter={16}>
            <Col span={narrow ? 12 : 6}>
              <Form.Item
                name={['quietHours', 'start']}
                label={t('alarm.form.quietStart')}
                rules={[required(t('alarm.form.quietStart'))]}
                {...clockProps}
              >
                <TimePicker format="HH:mm" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={narrow ? 12 : 6}>
              <Form.Item
                name={['quietHours', 'end']}
                label={t('alarm.form.quietEnd')}
                rules={[required(t('alarm.form.quietEnd'))]}
                {...clockProps}
              >
                <TimePicker format="HH:mm" style={{ width: '100%' }} />
              </Form.Item>
            </Col>
            <Col span={half}>
              <Form.Item
                name={['quietHours', 'timeZone']}
                label={t('alarm.form.timeZone')}
                rules={[required(t('alarm.form.timeZone'))]}
              >
                <Select showSearch options={zoneOptions} />
              </Form.Item>
            </Col>
          </Row>
        )}
        <Form.Item name="description" label={t('alarm.form.description')}>
          <Input maxLength={255} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** The template in both languages; a variable's tag adds it to the field last typed in. */
function MessageFields({ form }: { form: FormInstance<RuleFormValues> }) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<'zh' | 'en'>('zh');
  const insert = (variable: string) => {
    const current = (form.getFieldValue(['message', target]) as string | undefined) ?? '';
    form.setFieldValue(['message', target], `${current}{{${variable}}}`);
  };
  return (
    <>
      <Form.Item name={['message', 'zh']} label={t('alarm.form.messageZh')}>
        <Input.TextArea rows={2} maxLength={500} onFocus={() => setTarget('zh')} />
      </Form.Item>
      <Form.Item name={['message', 'en']} label={t('alarm.form.messageEn')}>
        <Input.TextArea rows={2} maxLength={500} onFocus={() => setTarget('en')} />
      </Form.Item>
      <Typography.Text type="secondary">{t('alarm.form.messageHelp')}</Typography.Text>
      <div className="alarm-variables">
        {VARIABLES.map((variable) => (
          <Tag key={variable} onClick={() => insert(variable)}>
            {`{{${variable}}}`}
          </Tag>
        ))}
      </div>
    </>
  );
}

type Option = { value: string; label: string };

/** One device, found by typing part of its SN or name. */
function DeviceSelect({
  initial,
  value,
  onChange,
}: {
  initial?: Option;
  value?: string;
  onChange?: (value: string) => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [options, setOptions] = useState<Option[]>(initial ? [initial] : []);
  const [loading, setLoading] = useState(false);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      setLoading(true);
      searchDevices(text)
        .then((devices) => {
          if (!current) return;
          const found = devices.map((d) => ({ value: d.id, label: `${d.name} (${d.sn})` }));
          const kept = initial && !found.some((o) => o.value === initial.value) ? [initial] : [];
          setOptions([...kept, ...found]);
        })
        .catch(() => undefined)
        .finally(() => current && setLoading(false));
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, initial]);
  return (
    <Select
      showSearch
      value={value}
      onChange={onChange}
      filterOption={false}
      onSearch={setText}
      loading={loading}
      placeholder={t('alarm.form.deviceSearch')}
      options={options}
      data-testid="alarm-rule-device"
    />
  );
}
