import { DEVICE_SERIES, ZGoodsInput, type TGoods, type TGoodsInput } from '@blrms/contracts';
import { Form, Input, Modal, Select, Switch, type ButtonProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { zodRules } from '../../shared/entity/zod-rules';
import { showFieldErrors } from '../../shared/field-errors';
import { DatasheetField, type Datasheet } from './DatasheetField';
import { GOODS_KEY, goodsApi } from './use-base-data';
import './base-data.css';

type Values = Omit<TGoodsInput, 'datasheetFileId' | 'enabled'> & {
  datasheet: Datasheet;
  enabled: boolean;
};

/** Add or edit goods: series, model, hardware revision, description, datasheet, enabled. */
export function GoodsFormModal({ goods, onClose }: { goods: TGoods | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useEntityMutation({
    mutationFn: (body: TGoodsInput) =>
      goods ? goodsApi.edit({ ...body, id: goods.id }) : goodsApi.add(body),
    invalidates: [[GOODS_KEY]],
    successMessage: serverMessage,
  });
  const rules = (field: keyof TGoodsInput, label: string) =>
    zodRules(ZGoodsInput, field, fieldRuleMessages(t, label));

  return (
    <Modal
      open
      title={goods ? t('baseData.goods.edit') : t('baseData.goods.add')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'goods-save' } as ButtonProps}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          goods
            ? {
                series: goods.series,
                model: goods.model,
                hwRevision: goods.hwRevision,
                description: goods.description,
                enabled: goods.enabled === 1,
                datasheet: goods.datasheetFileId
                  ? {
                      id: goods.datasheetFileId,
                      name: goods.datasheetFileName ?? goods.datasheetFileId,
                    }
                  : null,
              }
            : { enabled: true, datasheet: null }
        }
        onFinish={({ datasheet, enabled, ...values }) =>
          save.mutate(
            {
              ...values,
              hwRevision: values.hwRevision ?? '',
              description: values.description || null,
              datasheetFileId: datasheet?.id ?? null,
              enabled: enabled ? 1 : 0,
            },
            {
              onSuccess: onClose,
              onError: (error) =>
                showFieldErrors(form, error, (path) => {
                  // The datasheet's id is the form's `datasheet` field; the others are named alike.
                  const name = path[0] === 'datasheetFileId' ? 'datasheet' : path[0];
                  return name && name in form.getFieldsValue() ? [name] : null;
                }),
            },
          )
        }
      >
        <Form.Item
          name="series"
          label={t('baseData.goods.series')}
          rules={rules('series', t('baseData.goods.series'))}
        >
          <Select
            options={DEVICE_SERIES.map((s) => ({ value: s, label: s }))}
            data-testid="goods-series"
          />
        </Form.Item>
        <Form.Item
          name="model"
          label={t('baseData.goods.model')}
          rules={rules('model', t('baseData.goods.model'))}
        >
          <Input data-testid="goods-model" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="hwRevision"
          label={t('baseData.goods.hwRevision')}
          extra={t('baseData.goods.hwRevisionHelp')}
          rules={rules('hwRevision', t('baseData.goods.hwRevision'))}
        >
          <Input data-testid="goods-hw-revision" autoComplete="off" />
        </Form.Item>
        <Form.Item name="description" label={t('baseData.goods.description')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
        <Form.Item
          name="datasheet"
          label={t('baseData.goods.datasheet')}
          extra={t('baseData.goods.datasheetHelp')}
        >
          <DatasheetField />
        </Form.Item>
        <Form.Item name="enabled" label={t('baseData.status')} valuePropName="checked">
          <Switch
            checkedChildren={t('baseData.enabled')}
            unCheckedChildren={t('baseData.disabled')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
