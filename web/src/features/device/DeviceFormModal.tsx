import {
  ModalForm,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
  ProFormTreeSelect,
} from '@ant-design/pro-components';
import { SN_PATTERN, ZDeviceCreate, type TDevice, type TDeviceSeries } from '@blrms/contracts';
import { App, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { zodRules } from '../../shared/entity/zod-rules';
import { useDictItems } from '../../shared/use-dict-items';
import {
  goodsOptions,
  locationOptions,
  tagOptions,
  vendorOptions,
  withCurrent,
} from './base-options';
import { TAG_SEPARATORS, cleanTags, tagsValid } from './device-tags';
import {
  useCreateDevice,
  useDeviceTags,
  useEditDevice,
  useGoodsOptions,
  useGroupOptions,
  useLocationTree,
  useTokenOptions,
  useVendorOptions,
} from './use-devices';

type Values = {
  tokenId: string;
  sn: string;
  name: string;
  series: TDeviceSeries;
  model?: string;
  version?: string;
  groupId?: string;
  location?: string;
  goodsId?: string;
  locationId?: string;
  vendorId?: string;
  tags?: string[];
  remark?: string;
  enabled: boolean;
};

const blankToNull = (value: string | undefined) => value?.trim() || null;

/**
 * Adds a device or edits one. SN and token are its identity and only set when adding. The rules
 * repeat the server's (SN_PATTERN, lengths), which checks them again.
 */
export function DeviceFormModal({
  editing,
  open,
  onClose,
}: {
  editing: TDevice | null;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const series = useDictItems('device_series');
  const groups = useGroupOptions();
  const tokens = useTokenOptions();
  const goods = useGoodsOptions();
  const vendors = useVendorOptions();
  const locations = useLocationTree();
  const knownTags = useDeviceTags();
  const create = useCreateDevice();
  const edit = useEditDevice();

  // Without the tree (no right to read base data) the device's path still names its place.
  const locationTreeData =
    !locations.data && editing?.locationId
      ? [
          {
            value: editing.locationId,
            title: editing.locationPath ?? '',
            path: editing.locationPath ?? '',
            children: [],
          },
        ]
      : locationOptions(locations.data);

  const required = (field: string) => ({
    required: true,
    whitespace: true,
    message: t('form.required', { field }),
  });
  const rules = (field: keyof Values & keyof typeof ZDeviceCreate.shape, label: string) =>
    zodRules(ZDeviceCreate, field, fieldRuleMessages(t, label));

  const submit = async (values: Values) => {
    const common = {
      name: values.name.trim(),
      series: values.series,
      groupId: values.groupId ?? null,
      goodsId: values.goodsId ?? null,
      locationId: values.locationId ?? null,
      vendorId: values.vendorId ?? null,
      tags: cleanTags(values.tags ?? []),
    };
    try {
      if (editing) {
        await edit.mutateAsync({
          ...common,
          id: editing.id,
          model: blankToNull(values.model),
          version: blankToNull(values.version),
          location: blankToNull(values.location),
          remark: blankToNull(values.remark),
          enabled: values.enabled,
        });
      } else {
        await create.mutateAsync({
          ...common,
          tokenId: values.tokenId,
          sn: values.sn.trim(),
          model: blankToNull(values.model) ?? undefined,
          version: blankToNull(values.version) ?? undefined,
          location: blankToNull(values.location) ?? undefined,
          remark: blankToNull(values.remark) ?? undefined,
        });
      }
      void message.success(t('common.saved'));
      return true;
    } catch {
      // The HTTP client has shown the server's message; the form keeps what was typed.
      return false;
    }
  };

  return (
    <ModalForm<Values>
      key={editing?.id ?? 'new'}
      title={editing ? t('device.editTitle') : t('device.addTitle')}
      name="deviceForm"
      open={open}
      width={640}
      initialValues={
        editing
          ? {
              tokenId: editing.tokenId,
              sn: editing.sn,
              name: editing.name,
              series: editing.series,
              model: editing.model ?? '',
              version: editing.version ?? '',
              groupId: editing.groupId ?? undefined,
              location: editing.location ?? '',
              goodsId: editing.goodsId ?? undefined,
              locationId: editing.locationId ?? undefined,
              vendorId: editing.vendorId ?? undefined,
              tags: editing.tags,
              remark: editing.remark ?? '',
              enabled: editing.enabled,
            }
          : { enabled: true }
      }
      onOpenChange={(next) => {
        if (!next) onClose();
      }}
      modalProps={{ destroyOnHidden: true, maskClosable: false }}
      onFinish={submit}
      data-testid="device-form"
    >
      <Row gutter={16} style={{ width: '100%', margin: 0 }}>
        <Col xs={24} sm={12}>
          <ProFormSelect
            name="tokenId"
            label={t('device.token')}
            disabled={editing !== null}
            placeholder={t('device.tokenPlaceholder')}
            extra={editing ? undefined : t('device.tokenHint')}
            options={(tokens.data ?? []).map((token) => ({ value: token.id, label: token.name }))}
            fieldProps={{ loading: tokens.isPending, showSearch: true, optionFilterProp: 'label' }}
            rules={rules('tokenId', t('device.token'))}
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormText
            name="sn"
            label={t('device.sn')}
            disabled={editing !== null}
            placeholder={t('device.snPlaceholder')}
            rules={[required(t('device.sn')), { pattern: SN_PATTERN, message: t('device.snRule') }]}
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormText
            name="name"
            label={t('device.name')}
            rules={rules('name', t('device.name'))}
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormSelect
            name="series"
            label={t('device.series')}
            options={(series.data ?? []).map((item) => ({ value: item.value, label: item.text }))}
            fieldProps={{ loading: series.isPending }}
            rules={rules('series', t('device.series'))}
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormText
            name="model"
            label={t('device.model')}
            rules={rules('model', t('device.model'))}
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormText
            name="version"
            label={t('device.version')}
            rules={rules('version', t('device.version'))}
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormSelect
            name="groupId"
            label={t('device.group')}
            placeholder={t('device.noGroup')}
            options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
            fieldProps={{
              loading: groups.isPending,
              allowClear: true,
              showSearch: true,
              optionFilterProp: 'label',
            }}
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormSelect
            name="goodsId"
            label={t('device.goods')}
            placeholder={t('device.goodsPlaceholder')}
            options={withCurrent(
              goodsOptions(goods.data),
              editing?.goodsId ?? null,
              editing?.goodsModel ?? null,
            )}
            fieldProps={{
              loading: goods.isPending,
              allowClear: true,
              showSearch: true,
              optionFilterProp: 'label',
            }}
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormSelect
            name="vendorId"
            label={t('device.vendor')}
            placeholder={t('device.vendorPlaceholder')}
            options={withCurrent(
              vendorOptions(vendors.data),
              editing?.vendorId ?? null,
              editing?.vendorName ?? null,
            )}
            fieldProps={{
              loading: vendors.isPending,
              allowClear: true,
              showSearch: true,
              optionFilterProp: 'label',
            }}
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormTreeSelect
            name="locationId"
            label={t('device.place')}
            placeholder={t('device.placePlaceholder')}
            fieldProps={{
              treeData: locationTreeData,
              loading: locations.isPending,
              allowClear: true,
              showSearch: true,
              treeNodeFilterProp: 'title',
              treeDefaultExpandAll: true,
              treeNodeLabelProp: 'path',
            }}
            data-testid="device-form-location"
          />
        </Col>
        <Col xs={24} sm={12}>
          <ProFormText
            name="location"
            label={t('device.locationNote')}
            rules={rules('location', t('device.locationNote'))}
          />
        </Col>
        <Col xs={24}>
          <ProFormSelect
            name="tags"
            label={t('device.tags')}
            placeholder={t('device.tagsPlaceholder')}
            extra={t('device.tagsRule')}
            options={tagOptions(knownTags.data, (tag) => tag)}
            fieldProps={{ mode: 'tags', tokenSeparators: TAG_SEPARATORS }}
            rules={[
              {
                validator: (_, value: string[] | undefined) =>
                  tagsValid(value ?? [])
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('device.tagsRule'))),
              },
            ]}
          />
        </Col>
        {editing && (
          <Col xs={24}>
            <ProFormSwitch
              name="enabled"
              label={t('device.enabled')}
              extra={t('device.enabledHint')}
            />
          </Col>
        )}
        <Col xs={24}>
          <ProFormTextArea
            name="remark"
            label={t('common.remark')}
            fieldProps={{ maxLength: 255, showCount: true, rows: 2 }}
            rules={rules('remark', t('common.remark'))}
          />
        </Col>
      </Row>
    </ModalForm>
  );
}
