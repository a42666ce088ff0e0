import type { ButtonProps } from 'antd';
import { ZDictInput, type TDict, type TDictInput } from '@blrms/contracts';
import { Form, Input, Modal, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { zodRules } from '../../shared/entity/zod-rules';
import { showFieldErrors } from '../../shared/field-errors';
import { DICT_SELECT_KEY, DICTS_KEY, dictApi } from './use-dicts';

/** Add or edit a dictionary: its names in both languages, code and description. */
export function DictFormModal({ dict, onClose }: { dict: TDict | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<TDictInput>();
  const save = useEntityMutation({
    mutationFn: (values: TDictInput) =>
      dict ? dictApi.edit({ ...values, id: dict.id }) : dictApi.add(values),
    invalidates: [[DICTS_KEY], [DICT_SELECT_KEY]],
    successMessage: serverMessage,
  });

  const rules = (field: keyof TDictInput, label: string, pattern?: string) =>
    zodRules(ZDictInput, field, { ...fieldRuleMessages(t, label), pattern });

  return (
    <Modal
      open
      title={dict ? t('systemDict.edit') : t('systemDict.add')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'dict-save' } as ButtonProps}
    >
      <Form<TDictInput>
        form={form}
        layout="vertical"
        initialValues={
          dict
            ? {
                dictName: dict.dictName,
                dictNameEn: dict.dictNameEn,
                dictCode: dict.dictCode,
                description: dict.description,
              }
            : {}
        }
        onFinish={(values) =>
          save.mutate(
            {
              ...values,
              dictNameEn: values.dictNameEn || null,
              description: values.description || null,
            },
            { onSuccess: onClose, onError: (error) => showFieldErrors(form, error) },
          )
        }
      >
        <Space.Compact block style={{ gap: 16 }} className="dict-form__row">
          <Form.Item
            name="dictName"
            label={t('systemDict.dictName')}
            style={{ flex: 1 }}
            rules={rules('dictName', t('systemDict.dictName'))}
          >
            <Input data-testid="dict-name" />
          </Form.Item>
          <Form.Item
            name="dictNameEn"
            label={t('systemDict.dictNameEn')}
            style={{ flex: 1 }}
            rules={rules('dictNameEn', t('systemDict.dictNameEn'))}
          >
            <Input data-testid="dict-name-en" />
          </Form.Item>
        </Space.Compact>
        <Form.Item
          name="dictCode"
          label={t('systemDict.dictCode')}
          rules={rules('dictCode', t('systemDict.dictCode'), t('systemDict.dictCodeRule'))}
        >
          <Input data-testid="dict-code" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="description"
          label={t('systemDict.description')}
          rules={rules('description', t('systemDict.description'))}
        >
          <Input.TextArea rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
