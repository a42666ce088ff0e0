import {
  VENDOR_KINDS,
  ZVendorInput,
  type TVendor,
  type TVendorInput,
  type TVendorKind,
} from '@blrms/contracts';
import { DatePicker, Form, Input, Modal, Select, Space, type ButtonProps } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { zodRules } from '../../shared/entity/zod-rules';
import { showFieldErrors } from '../../shared/field-errors';
import { VENDORS_KEY, vendorApi } from './use-base-data';
import './base-data.css';

const DATE = 'YYYY-MM-DD';
type DateField = 'contractStart' | 'contractEnd' | 'warrantyEnd';
type Values = Omit<TVendorInput, DateField> & Record<DateField, Dayjs | null | undefined>;

/** Add or edit a vendor: kind, contact, contract number and dates, warranty end. */
export function VendorFormModal({
  vendor,
  onClose,
}: {
  vendor: TVendor | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const save = useEntityMutation({
    mutationFn: (body: TVendorInput) =>
      vendor ? vendorApi.edit({ ...body, id: vendor.id }) : vendorApi.add(body),
    invalidates: [[VENDORS_KEY]],
    successMessage: serverMessage,
  });
  const rules = (field: keyof TVendorInput, label: string) =>
    zodRules(ZVendorInput, field, fieldRuleMessages(t, label));
  /** An end date is not before the contract's start (the server checks the same). */
  const notBeforeStart = {
    validator: (_: unknown, value: Dayjs | null | undefined) => {
      const start = form.getFieldValue('contractStart') as Dayjs | null | undefined;
      return value && start && value.isBefore(start, 'day')
        ? Promise.reject(new Error(t('baseData.vendor.endBeforeStart')))
        : Promise.resolve();
    },
  };
  const dateOf = (text: string | null | undefined) => (text ? dayjs(text, DATE) : null);

  return (
    <Modal
      open
      width={640}
      title={vendor ? t('baseData.vendor.edit') : t('baseData.vendor.add')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'vendor-save' } as ButtonProps}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={
          vendor
            ? {
                ...vendor,
                contractStart: dateOf(vendor.contractStart),
                contractEnd: dateOf(vendor.contractEnd),
                warrantyEnd: dateOf(vendor.warrantyEnd),
              }
            : { kind: 'supplier' }
        }
        onFinish={(values) =>
          save.mutate(
            {
              name: values.name,
              kind: values.kind,
              contactName: values.contactName || null,
              contactPhone: values.contactPhone || null,
              contactEmail: values.contactEmail || null,
              contractNo: values.contractNo || null,
              contractStart: values.contractStart?.format(DATE) ?? null,
              contractEnd: values.contractEnd?.format(DATE) ?? null,
              warrantyEnd: values.warrantyEnd?.format(DATE) ?? null,
              remark: values.remark || null,
            },
            { onSuccess: onClose, onError: (error) => showFieldErrors(form, error) },
          )
        }
      >
        <Space.Compact block style={{ gap: 16 }} className="base-data-form__row">
          <Form.Item
            name="name"
            label={t('baseData.vendor.name')}
            style={{ flex: 2 }}
            rules={rules('name', t('baseData.vendor.name'))}
          >
            <Input data-testid="vendor-name" autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="kind"
            label={t('baseData.vendor.kind')}
            style={{ flex: 1 }}
            rules={rules('kind', t('baseData.vendor.kind'))}
          >
            <Select
              options={VENDOR_KINDS.map((k: TVendorKind) => ({
                value: k,
                label: t(`baseData.vendor.kind_${k}`),
              }))}
              data-testid="vendor-kind"
            />
          </Form.Item>
        </Space.Compact>
        <Space.Compact block style={{ gap: 16 }} className="base-data-form__row">
          <Form.Item
            name="contactName"
            label={t('baseData.contactName')}
            style={{ flex: 1 }}
            rules={rules('contactName', t('baseData.contactName'))}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="contactPhone"
            label={t('baseData.contactPhone')}
            style={{ flex: 1 }}
            rules={rules('contactPhone', t('baseData.contactPhone'))}
          >
            <Input autoComplete="off" />
          </Form.Item>
        </Space.Compact>
        <Space.Compact block style={{ gap: 16 }} className="base-data-form__row">
          <Form.Item
            name="contactEmail"
            label={t('baseData.vendor.contactEmail')}
            style={{ flex: 1 }}
            rules={[{ type: 'email' }, { max: 128 }]}
          >
            <Input autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="contractNo"
            label={t('baseData.vendor.contractNo')}
            style={{ flex: 1 }}
            rules={rules('contractNo', t('baseData.vendor.contractNo'))}
          >
            <Input autoComplete="off" data-testid="vendor-contract-no" />
          </Form.Item>
        </Space.Compact>
        <Space.Compact block style={{ gap: 16 }} className="base-data-form__row">
          <Form.Item
            name="contractStart"
            label={t('baseData.vendor.contractStart')}
            style={{ flex: 1 }}
          >
            <DatePicker style={{ width: '100%' }} data-testid="vendor-contract-start" />
          </Form.Item>
          <Form.Item
            name="contractEnd"
            label={t('baseData.vendor.contractEnd')}
            style={{ flex: 1 }}
            dependencies={['contractStart']}
            rules={[notBeforeStart]}
          >
            <DatePicker style={{ width: '100%' }} data-testid="vendor-contract-end" />
          </Form.Item>
          <Form.Item
            name="warrantyEnd"
            label={t('baseData.vendor.warrantyEnd')}
            style={{ flex: 1 }}
            dependencies={['contractStart']}
            rules={[notBeforeStart]}
          >
            <DatePicker style={{ width: '100%' }} data-testid="vendor-warranty-end" />
          </Form.Item>
        </Space.Compact>
        <Form.Item name="remark" label={t('baseData.remark')}>
          <Input.TextArea rows={2} maxLength={500} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
