import { FIRMWARE_VERSION_PATTERN } from '@blrms/contracts';
import { Checkbox, Divider, Form, Input, Radio, Select, Space, Typography, theme } from 'antd';
import { useTranslation } from 'react-i18next';
import { CampaignPreviewPanel } from './CampaignPreviewPanel';
import type { CampaignFormState, DeviceOption } from './use-campaign-form';

/**
 * The upgrade's target: devices chosen by SN, a group, tags or the firmware's whole series, narrowed
 * by current version and presence, with the server's preview of what it names.
 */
export function CampaignTargetFields({ state }: { state: CampaignFormState }) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const { targetKind, devices, groups, tagChoices, series } = state;
  const required = (field: string) => [{ required: true, message: t('form.required', { field }) }];
  return (
    <>
      <Divider orientation="left" plain style={{ marginTop: 0 }}>
        {t('campaign.target')}
      </Divider>
      <Form.Item name="targetKind">
        <Radio.Group
          optionType="button"
          options={(['devices', 'group', 'tags', 'series'] as const).map((kind) => ({
            value: kind,
            label: t(`campaign.targetKinds.${kind}`),
          }))}
          data-testid="campaign-target-kind"
        />
      </Form.Item>
      {targetKind === 'devices' && (
        <Form.Item
          name="deviceIds"
          label={t('campaign.devices')}
          rules={required(t('campaign.devices'))}
        >
          <Select
            mode="multiple"
            showSearch
            filterOption={false}
            onSearch={devices.search}
            onChange={(_: string[], options) =>
              devices.choose(([] as DeviceOption[]).concat(options as DeviceOption[]))
            }
            loading={devices.loading}
            options={devices.options}
            placeholder={t('campaign.devicesPlaceholder')}
            maxTagCount="responsive"
            data-testid="campaign-devices"
          />
        </Form.Item>
      )}
      {targetKind === 'group' && (
        <Form.Item name="groupId" label={t('campaign.group')} rules={required(t('campaign.group'))}>
          <Select
            showSearch
            optionFilterProp="label"
            placeholder={t('campaign.groupPlaceholder')}
            loading={groups.isPending}
            options={(groups.data ?? []).map((g) => ({ value: g.id, label: g.name }))}
            data-testid="campaign-group"
          />
        </Form.Item>
      )}
      {targetKind === 'tags' && (
        <Form.Item
          name="tags"
          label={t('campaign.tags')}
          rules={required(t('campaign.tags'))}
          extra={t('campaign.tagsHint')}
        >
          <Select
            mode="multiple"
            showSearch
            placeholder={t('campaign.tagsPlaceholder')}
            loading={tagChoices.isPending}
            options={(tagChoices.data ?? []).map((c) => ({
              value: c.tag,
              label: t('campaign.tagCount', { tag: c.tag, count: c.count }),
            }))}
            maxTagCount="responsive"
            data-testid="campaign-tags"
          />
        </Form.Item>
      )}
      {targetKind === 'series' && (
        <Form.Item>
          <Typography.Text type={series ? undefined : 'secondary'}>
            {series ? t('campaign.seriesTarget', { series }) : t('campaign.seriesNeedsFirmware')}
          </Typography.Text>
        </Form.Item>
      )}
      <Form.Item label={t('campaign.versionRange')} extra={t('campaign.versionRangeHint')}>
        <Space.Compact style={{ width: '100%', maxWidth: 420 }}>
          {(['versionFrom', 'versionTo'] as const).map((name) => (
            <Form.Item
              key={name}
              name={name}
              noStyle
              rules={[{ pattern: FIRMWARE_VERSION_PATTERN, message: t('firmware.versionRule') }]}
            >
              <Input
                placeholder={t(`campaign.${name}`)}
                allowClear
                data-testid={`campaign-${name}`}
              />
            </Form.Item>
          ))}
        </Space.Compact>
      </Form.Item>
      <Form.Item name="onlineOnly" valuePropName="checked">
        <Checkbox data-testid="campaign-online-only">{t('campaign.onlineOnly')}</Checkbox>
      </Form.Item>
      <div
        style={{
          background: token.colorFillAlter,
          borderRadius: token.borderRadiusLG,
          padding: 12,
          marginBottom: 16,
        }}
        data-testid="campaign-preview"
      >
        <Typography.Text strong style={{ display: 'block', marginBottom: 8 }}>
          {t('campaign.preview')}
        </Typography.Text>
        <CampaignPreviewPanel {...state.preview} />
      </div>
    </>
  );
}
