import { WAVE_DEADLINE_ACTIONS } from '@blrms/contracts';
import {
  Checkbox,
  Col,
  DatePicker,
  Form,
  InputNumber,
  Radio,
  Row,
  Space,
  Switch,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { RolloutValues } from './campaign-form';

/**
 * How a campaign rolls out, the same in the upgrade and the bulk-configuration form: devices at
 * once, the failure threshold per wave, the soak time and the approval between waves, the wave
 * deadline for offline devices and a scheduled start. Sits in a form whose values include
 * `RolloutValues`; `children` are more columns of the first row (the upgrade's jitter).
 */
export function RolloutFields({ children }: { children?: ReactNode }) {
  const { t } = useTranslation();
  const form = Form.useFormInstance<RolloutValues>();
  const deadlineOn = Form.useWatch('waveDeadlineOn', form) ?? false;
  const startLater = Form.useWatch('startLater', form) ?? false;
  const required = (field: string) => ({
    required: true,
    message: t('form.required', { field }),
  });

  return (
    <>
      <Row gutter={16}>
        <Col xs={12} md={6}>
          <Form.Item
            name="maxConcurrent"
            label={t('campaign.maxConcurrent')}
            tooltip={t('campaign.maxConcurrentHint')}
            rules={[required(t('campaign.maxConcurrent'))]}
          >
            <InputNumber
              min={1}
              max={10_000}
              precision={0}
              style={{ width: '100%' }}
              data-testid="campaign-max-concurrent"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name="failureThresholdPercent"
            label={t('campaign.failureThreshold')}
            tooltip={t('campaign.failureThresholdHint')}
            rules={[required(t('campaign.failureThreshold'))]}
          >
            <InputNumber
              min={1}
              max={100}
              addonAfter="%"
              style={{ width: '100%' }}
              data-testid="campaign-threshold"
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name="soakMinutes"
            label={t('campaign.soak')}
            tooltip={t('campaign.soakHint')}
            rules={[required(t('campaign.soak'))]}
          >
            <InputNumber
              min={0}
              max={10_080}
              precision={0}
              addonAfter={t('campaign.minutes')}
              style={{ width: '100%' }}
              data-testid="campaign-soak"
            />
          </Form.Item>
        </Col>
        {children}
      </Row>
      <Form.Item
        name="approveEachWave"
        valuePropName="checked"
        extra={t('campaign.approveEachWaveHint')}
      >
        <Checkbox data-testid="campaign-approve-each-wave">
          {t('campaign.approveEachWave')}
        </Checkbox>
      </Form.Item>
      <Form.Item label={t('campaign.waveDeadline')} style={{ marginBottom: deadlineOn ? 8 : 24 }}>
        <Space wrap>
          <Form.Item name="waveDeadlineOn" valuePropName="checked" noStyle>
            <Switch data-testid="campaign-wave-deadline-on" />
          </Form.Item>
          <Typography.Text>{t('campaign.waveDeadlineLimit')}</Typography.Text>
        </Space>
      </Form.Item>
      {deadlineOn && (
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item
              name="waveDeadlineMinutes"
              label={t('campaign.waveDeadlineMinutes')}
              rules={[required(t('campaign.waveDeadlineMinutes'))]}
            >
              <InputNumber
                min={1}
                max={43_200}
                precision={0}
                addonAfter={t('campaign.minutes')}
                style={{ width: '100%' }}
                data-testid="campaign-wave-deadline"
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item name="onWaveDeadline" label={t('campaign.onWaveDeadline')}>
              <Radio.Group data-testid="campaign-on-wave-deadline">
                <Space direction="vertical" size={4}>
                  {WAVE_DEADLINE_ACTIONS.map((action) => (
                    <Radio key={action} value={action}>
                      {t(`campaign.waveDeadlineActions.${action}`)}
                    </Radio>
                  ))}
                </Space>
              </Radio.Group>
            </Form.Item>
          </Col>
        </Row>
      )}
      <Form.Item label={t('campaign.startAt')} style={{ marginBottom: startLater ? 8 : 24 }}>
        <Space wrap>
          <Form.Item name="startLater" valuePropName="checked" noStyle>
            <Switch data-testid="campaign-start-later" />
          </Form.Item>
          <Typography.Text>{t('campaign.startLater')}</Typography.Text>
        </Space>
      </Form.Item>
      {startLater && (
        <Form.Item
          name="startAt"
          getValueProps={(iso?: string) => ({ value: iso ? dayjs(iso) : undefined })}
          normalize={(time: Dayjs | null) => time?.toISOString()}
          rules={[
            required(t('campaign.startAt')),
            {
              validator: (_, iso?: string) =>
                iso && dayjs(iso).isBefore(dayjs())
                  ? Promise.reject(new Error(t('campaign.startAtFuture')))
                  : Promise.resolve(),
            },
          ]}
        >
          <DatePicker
            showTime={{ format: 'HH:mm' }}
            format="YYYY-MM-DD HH:mm"
            disabledDate={(day) => day.isBefore(dayjs(), 'day')}
            data-testid="campaign-start-at"
          />
        </Form.Item>
      )}
    </>
  );
}
