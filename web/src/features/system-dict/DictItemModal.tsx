import type { ButtonProps } from 'antd';
import { ZDictItemInput, type TDictItemInput, type TDictItemRow } from '@blrms/contracts';
import { Form, Input, InputNumber, Modal, Space, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { zodRules } from '../../shared/entity/zod-rules';
import { showFieldErrors } from '../../shared/field-errors';
import { DICT_ITEMS_KEY, DICT_SELECT_KEY, dictApi } from './use-dicts';

type Values = Omit<TDictItemInput, 'dictId' | 'status'> & { enabled: boolean };

/** Add or edit an item: its text in both languages, value, colour, order and whether it shows. */
export function DictItemModal({
  dictId,
  item,
  nextOrder,
  onClose,
}: {
  dictId: string;
  item: TDictItemRow | null;
  nextOrder: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useEntityMutation({
    mutationFn: ({ enabled, ...values }: Values) => {
      const body = {
        ...values,
        itemTextEn: values.itemTextEn || null,
        itemColor: values.itemColor || null,
        description: values.description || null,
        status: enabled ? (1 as const) : (0 as const),
      };
      return item
        ? dictApi.editItem({ ...body, id: item.id })
        : dictApi.addItem({ ...body, dictId });
    },
    invalidates: [[DICT_ITEMS_KEY], [DICT_SELECT_KEY]],
    successMessage: serverMessage,
  });
  const rules = (field: keyof TDictItemInput, label: string) =>
    zodRules(ZDictItemInput, field, fieldRuleMessages(t, label));

  return (
    <Modal
      open
      title={item ? t('systemDict.editItem') : t('systemDict.addItem')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'dict-item-save' } as ButtonProps}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          item
            ? {
                itemText: item.itemText,
                itemTextEn: item.itemTextEn,
                itemValue: item.itemValue,
                itemColor: item.itemColor,
                description: item.description,
                sortOrder: item.sortOrder,
                enabled: item.status === 1,
              }
            : { sortOrder: nextOrder, enabled: true }
        }
        onFinish={(values) =>
          save.mutate(values, {
            onSuccess: onClose,
            onError: (error) => showFieldErrors(form, error),
          })
        }
      >
        <Space.Compact block style={{ gap: 16 }} className="dict-form__row">
          <Form.Item
            name="itemText"
            label={t('systemDict.itemText')}
            style={{ flex: 1 }}
            rules={rules('itemText', t('systemDict.itemText'))}
          >
            <Input data-testid="dict-item-text" />
          </Form.Item>
          <Form.Item
            name="itemTextEn"
            label={t('systemDict.itemTextEn')}
            style={{ flex: 1 }}
            rules={rules('itemTextEn', t('systemDict.itemTextEn'))}
          >
            <Input data-testid="dict-item-text-en" />
          </Form.Item>
        </Space.Compact>
        <Form.Item
          name="itemValue"
          label={t('systemDict.itemValue')}
          validateDebounce={400}
          rules={[
            ...rules('itemValue', t('systemDict.itemValue')),
            {
              // The server's dictItemCheck: a value another item of the dictionary has is refused.
              validator: async (_, value: string | undefined) => {
                if (!value?.trim()) return;
                try {
                  await dictApi.checkItemValue(dictId, value.trim(), item?.id);
                } catch (error) {
                  if (error instanceof ApiError && error.status === 409) {
                    throw new Error(t('systemDict.valueTaken'));
                  }
                }
              },
            },
          ]}
        >
          <Input data-testid="dict-item-value" autoComplete="off" />
        </Form.Item>
        <Space.Compact block style={{ gap: 16 }} className="dict-form__row">
          <Form.Item
            name="itemColor"
            label={t('systemDict.itemColor')}
            tooltip={t('systemDict.itemColorHelp')}
            style={{ flex: 1 }}
            rules={zodRules(ZDictItemInput, 'itemColor', {
              pattern: t('systemDict.itemColorHelp'),
            })}
          >
            <Input placeholder="blue" />
          </Form.Item>
          <Form.Item
            name="sortOrder"
            label={t('systemDict.sortOrder')}
            style={{ flex: 1 }}
            rules={rules('sortOrder', t('systemDict.sortOrder'))}
          >
            <InputNumber min={0} max={99999} precision={0} style={{ width: '100%' }} />
          </Form.Item>
          <Form.Item name="enabled" label={t('systemDict.status')} valuePropName="checked">
            <Switch
              checkedChildren={t('systemDict.enabled')}
              unCheckedChildren={t('systemDict.disabled')}
              data-testid="dict-item-enabled"
            />
          </Form.Item>
        </Space.Compact>
        <Form.Item
          name="description"
          label={t('systemDict.itemDescription')}
          rules={rules('description', t('systemDict.itemDescription'))}
        >
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
