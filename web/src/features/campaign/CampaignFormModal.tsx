import { ZCampaignCreate, type TCampaign } from '@blrms/contracts';
import { Alert, Button, Col, Form, Input, Modal, Row, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldRuleMessages } from '../../shared/entity/field-rule-messages';
import { zodRules } from '../../shared/entity/zod-rules';
import { formatBytes } from '../../shared/file-size';
import type { UpgradeFormValues } from './campaign-form';
import { CampaignScheduleFields } from './CampaignScheduleFields';
import { CampaignTargetFields } from './CampaignTargetFields';
import { INITIAL_VALUES, useCampaignForm } from './use-campaign-form';

/**
 * A new firmware upgrade: the firmware from the library, the devices (chosen by SN, a group or
 * the firmware's whole series, narrowed by current version and presence), the waves, concurrency,
 * failure threshold, daily window and jitter. The server's count of the devices the target
 * names is shown before anything starts, and its objections appear on the fields they name.
 */
export function CampaignFormModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose: () => void;
  onCreated: (campaign: TCampaign) => void;
}) {
  const { t } = useTranslation();
  const state = useCampaignForm(open, onClose, onCreated);
  const { form, firmware } = state;
  const nameLabel = t('campaign.name');

  return (
    <Modal
      open={open}
      title={t('campaign.addTitle')}
      width={760}
      style={{ top: 24 }}
      onCancel={state.close}
      footer={
        <Space>
          <Button onClick={state.close}>{t('common.cancel')}</Button>
          <Button
            type="primary"
            disabled={!state.canStart}
            loading={state.creating}
            onClick={() => void state.submit()}
            data-testid="campaign-start"
          >
            {t('campaign.start')}
          </Button>
        </Space>
      }
      maskClosable={false}
      destroyOnHidden
      data-testid="campaign-form"
    >
      <Form<UpgradeFormValues>
        form={form}
        layout="vertical"
        initialValues={INITIAL_VALUES}
        onValuesChange={state.onValuesChange}
      >
        <Row gutter={16}>
          <Col xs={24} md={12}>
            <Form.Item
              name="firmwareId"
              label={t('campaign.firmware')}
              rules={[
                { required: true, message: t('form.required', { field: t('campaign.firmware') }) },
              ]}
            >
              <Select
                showSearch
                optionFilterProp="label"
                placeholder={t('campaign.firmwarePlaceholder')}
                loading={firmware.isPending}
                options={(firmware.data ?? []).map((f) => ({
                  value: f.id,
                  label: t('campaign.firmwareOption', {
                    series: f.series,
                    version: f.version,
                    size: formatBytes(f.size),
                  }),
                }))}
                data-testid="campaign-firmware"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Form.Item
              name="name"
              label={nameLabel}
              rules={zodRules(ZCampaignCreate, 'name', fieldRuleMessages(t, nameLabel))}
            >
              <Input placeholder={t('campaign.namePlaceholder')} data-testid="campaign-name" />
            </Form.Item>
          </Col>
        </Row>
        <CampaignTargetFields state={state} />
        <CampaignScheduleFields wavePreset={state.wavePreset} windowOn={state.windowOn} />
        {state.submitError && (
          <Alert
            type="error"
            showIcon
            message={state.submitError}
            data-testid="campaign-form-error"
          />
        )}
      </Form>
    </Modal>
  );
}
