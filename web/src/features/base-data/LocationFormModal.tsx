import {
  LOCATION_KINDS,
  LOCATION_PARENT_KINDS,
  ZLocationInput,
  type TLocation,
  type TLocationInput,
  type TLocationKind,
} from '@blrms/contracts';
import { EnvironmentOutlined } from '@ant-design/icons';
import {
  Button,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Space,
  TreeSelect,
  Typography,
  type ButtonProps,
} from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { serverMessage, useEntityMutation } from '../../shared/entity/use-entity-mutation';
import { zodRules } from '../../shared/entity/zod-rules';
import { showFieldErrors } from '../../shared/field-errors';
import { CoordinatePicker } from '../../shared/map/CoordinatePicker';
import { locationOptions } from './location-options';
import { LOCATION_TREE_KEY, LOCATIONS_KEY, locationApi, useLocationTree } from './use-base-data';
import './base-data.css';

type Values = Omit<TLocationInput, 'parentId'> & { parentId?: string | null };

/**
 * Add or edit a location: where it sits in the tree (the parent's kind must suit its kind), its
 * name, address, coordinates and contact.
 */
export function LocationFormModal({
  location,
  parentId,
  onClose,
}: {
  location: TLocation | null;
  /** The parent of a new location ("add below"). */
  parentId?: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const kind = Form.useWatch('kind', form) as TLocationKind | undefined;
  const tree = useLocationTree();
  const [picking, setPicking] = useState(false);
  const latitude = Form.useWatch('latitude', form) as number | null | undefined;
  const longitude = Form.useWatch('longitude', form) as number | null | undefined;
  const kindLabel = (k: TLocationKind) => t(`baseData.location.kind_${k}`);
  const parents = useMemo(
    () =>
      locationOptions(tree.data?.nodes ?? [], kindLabel, {
        forKind: kind,
        exclude: location?.id,
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- kindLabel follows the language (t)
    [tree.data, kind, location?.id, t],
  );
  const save = useEntityMutation({
    mutationFn: (body: TLocationInput) =>
      location ? locationApi.edit({ ...body, id: location.id }) : locationApi.add(body),
    invalidates: [[LOCATIONS_KEY], [LOCATION_TREE_KEY]],
    successMessage: serverMessage,
  });
  const rules = (field: keyof TLocationInput, label: string) =>
    zodRules(ZLocationInput, field, fieldRuleMessages(t, label));
  const parentKind = (id: string | null | undefined) =>
    id ? (tree.data?.nodes.find((n) => n.id === id)?.kind ?? null) : null;
  const topAllowed = !kind || LOCATION_PARENT_KINDS[kind].includes(null);

  const initial: Partial<Values> = location
    ? {
        parentId: location.parentId,
        kind: location.kind,
        name: location.name,
        address: location.address,
        latitude: location.latitude,
        longitude: location.longitude,
        contactName: location.contactName,
        contactPhone: location.contactPhone,
        sortNo: location.sortNo,
      }
    : {
        parentId: parentId ?? null,
        kind: parentKind(parentId) === 'site' ? 'cabinet' : parentId ? 'site' : 'region',
        sortNo: 0,
      };

  return (
    <Modal
      open
      width={640}
      title={location ? t('baseData.location.edit') : t('baseData.location.add')}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={save.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'location-save' } as ButtonProps}
    >
      <Form<Values>
        form={form}
        layout="vertical"
        initialValues={initial}
        onFinish={(values) =>
          save.mutate(
            {
              ...values,
              parentId: values.parentId ?? null,
              latitude: values.latitude ?? null,
              longitude: values.longitude ?? null,
              address: values.address || null,
              contactName: values.contactName || null,
              contactPhone: values.contactPhone || null,
            },
            { onSuccess: onClose, onError: (error) => showFieldErrors(form, error) },
          )
        }
      >
        <Space.Compact block style={{ gap: 16 }} className="base-data-form__row">
          <Form.Item
            name="kind"
            label={t('baseData.location.kind')}
            style={{ flex: 1 }}
            rules={rules('kind', t('baseData.location.kind'))}
          >
            <Select
              options={LOCATION_KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
              data-testid="location-kind"
            />
          </Form.Item>
          <Form.Item
            name="name"
            label={t('baseData.location.name')}
            style={{ flex: 2 }}
            rules={rules('name', t('baseData.location.name'))}
          >
            <Input data-testid="location-name" autoComplete="off" />
          </Form.Item>
        </Space.Compact>
        <Form.Item
          name="parentId"
          label={t('baseData.location.parent')}
          extra={t('baseData.location.parentHelp')}
          rules={[
            {
              validator: (_, value: string | null | undefined) =>
                value || topAllowed
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('baseData.location.parentHelp'))),
            },
          ]}
        >
          <TreeSelect
            allowClear
            showSearch
            treeNodeFilterProp="title"
            treeDefaultExpandAll
            placeholder={t('baseData.location.parentNone')}
            treeData={parents}
            loading={tree.isLoading}
            data-testid="location-parent"
          />
        </Form.Item>
        <Form.Item
          name="address"
          label={t('baseData.location.address')}
          rules={rules('address', t('baseData.location.address'))}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Space.Compact block style={{ gap: 16 }} className="base-data-form__row">
          <Form.Item name="latitude" label={t('baseData.location.latitude')} style={{ flex: 1 }}>
            <InputNumber
              min={-90}
              max={90}
              precision={6}
              style={{ width: '100%' }}
              data-testid="location-latitude"
            />
          </Form.Item>
          <Form.Item name="longitude" label={t('baseData.location.longitude')} style={{ flex: 1 }}>
            <InputNumber
              min={-180}
              max={180}
              precision={6}
              style={{ width: '100%' }}
              data-testid="location-longitude"
            />
          </Form.Item>
          <Form.Item label=" " colon={false} className="base-data-form__pick">
            <Button
              icon={<EnvironmentOutlined />}
              onClick={() => setPicking(true)}
              data-testid="location-pick-on-map"
            >
              {t('baseData.location.pickOnMap')}
            </Button>
          </Form.Item>
        </Space.Compact>
        <Typography.Paragraph type="secondary" className="base-data-form__help">
          {t('baseData.location.coordinatesHelp')}
        </Typography.Paragraph>
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
          <Form.Item name="sortNo" label={t('baseData.location.sortNo')} style={{ width: 110 }}>
            <InputNumber min={0} max={99999} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Space.Compact>
      </Form>
      <CoordinatePicker
        open={picking}
        value={
          latitude !== null &&
          latitude !== undefined &&
          longitude !== null &&
          longitude !== undefined
            ? { lat: latitude, lng: longitude }
            : null
        }
        onChange={(picked) =>
          form.setFieldsValue({ latitude: picked?.lat ?? null, longitude: picked?.lng ?? null })
        }
        onClose={() => setPicking(false)}
      />
    </Modal>
  );
}
