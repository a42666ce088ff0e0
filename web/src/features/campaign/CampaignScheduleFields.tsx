import {
  Col,
  Divider,
  Form,
  Input,
  InputNumber,
  Radio,
  Space,
  Switch,
  TimePicker,
  Typography,
} from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { WavePreset } from './campaign-form';
import {
  browserUtcOffsetMinutes,
  formatUtcOffset,
  parseWaves,
  WAVE_PRESET_KEYS,
} from './campaign-form';
import { RolloutFields } from './RolloutFields';

const timeOfDay = (hhmm: string): Dayjs => {
  const [hour = 0, minute = 0] = hhmm.split(':').map(Number);
  return dayjs().hour(hour).minute(minute).second(0).millisecond(0);
};

type DailyWindow = { start: string; end: string };

/**
 * How the upgrade rolls out: the waves (a preset or typed percentages), concurrency, failure
 * threshold and soak (RolloutFields), the jitter, and an optional daily window.
 */
export function CampaignScheduleFields({
  wavePreset,
  windowOn,
}: {
  wavePreset: WavePreset;
  windowOn: boolean;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Divider orientation="left" plain>
        {t('campaign.rollout')}
      </Divider>
      <Form.Item name="wavePreset" label={t('campaign.waves')} extra={t('campaign.wavesHint')}>
        <Radio.Group
          options={[...WAVE_PRESET_KEYS, 'custom' as const].map((key: WavePreset) => ({
            value: key,
            label: t(`campaign.wavePresets.${key}`),
          }))}
          data-testid="campaign-waves"
        />
      </Form.Item>
      {wavePreset === 'custom' && (
        <Form.Item
          name="customWaves"
          rules={[
            {
              validator: (_, text: string | undefined) => {
                const parsed = parseWaves(text ?? '');
                return 'waves' in parsed
                  ? Promise.resolve()
                  : Promise.reject(new Error(t(`campaign.wavesProblem.${parsed.problem}`)));
              },
            },
          ]}
        >
          <Input
            placeholder={t('campaign.wavesCustomPlaceholder')}
            data-testid="campaign-custom-waves"
          />
        </Form.Item>
      )}
      <RolloutFields>
        <Col xs={12} md={6}>
          <Form.Item
            name="jitterSec"
            label={t('campaign.jitter')}
            tooltip={t('campaign.jitterHint')}
            rules={[
              { required: true, message: t('form.required', { field: t('campaign.jitter') }) },
            ]}
          >
            <InputNumber
              min={0}
              max={3600}
              precision={0}
              addonAfter={t('campaign.seconds')}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      </RolloutFields>
      <Form.Item label={t('campaign.window')} style={{ marginBottom: windowOn ? 8 : 24 }}>
        <Space wrap>
          <Form.Item name="windowOn" valuePropName="checked" noStyle>
            <Switch data-testid="campaign-window-on" />
          </Form.Item>
          <Typography.Text>{t('campaign.windowLimit')}</Typography.Text>
        </Space>
      </Form.Item>
      {windowOn && (
        <Form.Item
          name="window"
          extra={t('campaign.windowHint', { zone: formatUtcOffset(browserUtcOffsetMinutes()) })}
          getValueProps={(w?: DailyWindow) => ({
            value: w ? [timeOfDay(w.start), timeOfDay(w.end)] : undefined,
          })}
          normalize={(range: [Dayjs, Dayjs] | null) =>
            range ? { start: range[0].format('HH:mm'), end: range[1].format('HH:mm') } : undefined
          }
          rules={[
            { required: true, message: t('form.required', { field: t('campaign.window') }) },
            {
              validator: (_, w?: DailyWindow) =>
                w && w.start === w.end
                  ? Promise.reject(new Error(t('campaign.windowSame')))
                  : Promise.resolve(),
            },
          ]}
        >
          <TimePicker.RangePicker format="HH:mm" order={false} data-testid="campaign-window" />
        </Form.Item>
      )}
    </>
  );
}
