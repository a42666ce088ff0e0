import type { ButtonProps } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import {
  CHECK_RULE_ITEMS_MAX,
  ZCheckRuleInput,
  ZCheckRuleItem,
  type TCheckRule,
  type TCheckRuleInput,
} from '@blrms/contracts';
import { Button, Form, Input, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { checkRuleApi } from '../../api/account';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { zodRules } from '../../shared/entity/zod-rules';
import { CHECK_RULES_KEY } from './use-check-rules';

const EMPTY_ITEM = { pattern: '', message: '', messageEn: '' };

/**
 * The contract's limits without its presence checks: the form's own required rule also refuses
 * a blank, which the contract lets through.
 */
const RULE_LIMITS = ZCheckRuleInput.partial();
const ITEM_LIMITS = ZCheckRuleItem.partial();

/** Add or edit a check rule: code, name, and its patterns with their messages in both languages. */
export function CheckRuleModal({
  rule,
  onClose,
}: {
  rule: TCheckRule | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TCheckRuleInput>();

  const save = useEntityMutation({
    mutationFn: (values: TCheckRuleInput) =>
      rule ? checkRuleApi.edit({ ...values, id: rule.id }) : checkRuleApi.add(values),
    invalidates: [[CHECK_RULES_KEY]],
    successMessage: serverMessage,
  });

  const required = (label: string) => ({
    required: true,
    whitespace: true,
    message: t('account.required', { field: label }),
  });
  const maxText = (n: number) => t('account.max', { n });

  return (
    <Modal
      open
      width={800}
      title={rule ? t('checkRule.edit') : t('checkRule.add')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'check-rule-save' } as ButtonProps}
    >
      <Form<TCheckRuleInput>
        form={form}
        layout="vertical"
        initialValues={
          rule
            ? {
                ruleCode: rule.ruleCode,
                ruleName: rule.ruleName,
                ruleDescription: rule.ruleDescription,
                rules: rule.rules,
              }
            : { rules: [EMPTY_ITEM] }
        }
        onFinish={(values) =>
          save.mutate(
            { ...values, ruleDescription: values.ruleDescription || null },
            { onSuccess: onClose },
          )
        }
      >
        <Space.Compact block style={{ gap: 16 }} className="check-rule-modal__row">
          <Form.Item
            name="ruleCode"
            label={t('checkRule.ruleCode')}
            style={{ flex: 1 }}
            rules={[
              required(t('checkRule.ruleCode')),
              ...zodRules(RULE_LIMITS, 'ruleCode', {
                pattern: t('checkRule.ruleCodeRule'),
                maxLength: maxText,
              }),
            ]}
          >
            <Input data-testid="check-rule-code" />
          </Form.Item>
          <Form.Item
            name="ruleName"
            label={t('checkRule.ruleName')}
            style={{ flex: 1 }}
            rules={[
              required(t('checkRule.ruleName')),
              ...zodRules(RULE_LIMITS, 'ruleName', { maxLength: maxText }),
            ]}
          >
            <Input data-testid="check-rule-name" />
          </Form.Item>
        </Space.Compact>
        <Form.Item
          name="ruleDescription"
          label={t('checkRule.description')}
          rules={zodRules(RULE_LIMITS, 'ruleDescription', { maxLength: maxText })}
        >
          <Input />
        </Form.Item>
        <Form.List name="rules">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field, index) => (
                <div
                  key={field.key}
                  className="check-rule-modal__item"
                  data-testid={`check-rule-item-${index}`}
                >
                  <Form.Item
                    name={[field.name, 'pattern']}
                    label={`${t('checkRule.pattern')} ${index + 1}`}
                    tooltip={t('checkRule.patternHelp')}
                    rules={[
                      required(t('checkRule.pattern')),
                      ...zodRules(ITEM_LIMITS, 'pattern', { maxLength: maxText }),
                    ]}
                  >
                    <Input
                      placeholder="^[A-Z][0-9]{5}$"
                      className="check-rule-modal__pattern"
                      data-testid={`check-rule-pattern-${index}`}
                    />
                  </Form.Item>
                  <Space.Compact block style={{ gap: 16 }} className="check-rule-modal__row">
                    <Form.Item
                      name={[field.name, 'message']}
                      label={t('checkRule.messageZh')}
                      style={{ flex: 1 }}
                      rules={[
                        required(t('checkRule.messageZh')),
                        ...zodRules(ITEM_LIMITS, 'message', { maxLength: maxText }),
                      ]}
                    >
                      <Input data-testid={`check-rule-message-${index}`} />
                    </Form.Item>
                    <Form.Item
                      name={[field.name, 'messageEn']}
                      label={t('checkRule.messageEn')}
                      style={{ flex: 1 }}
                      rules={[
                        required(t('checkRule.messageEn')),
                        ...zodRules(ITEM_LIMITS, 'messageEn', { maxLength: maxText }),
                      ]}
                    >
                      <Input data-testid={`check-rule-message-en-${index}`} />
                    </Form.Item>
                    {fields.length > 1 && (
                      <Button
                        type="text"
                        danger
                        icon={<MinusCircleOutlined />}
                        onClick={() => remove(field.name)}
                        aria-label={t('checkRule.removeItem')}
                        className="check-rule-modal__remove"
                      />
                    )}
                  </Space.Compact>
                </div>
              ))}
              {fields.length < CHECK_RULE_ITEMS_MAX && (
                <Button type="dashed" block icon={<PlusOutlined />} onClick={() => add(EMPTY_ITEM)}>
                  {t('checkRule.addItem')}
                </Button>
              )}
            </>
          )}
        </Form.List>
      </Form>
    </Modal>
  );
}
