import type { TCampaignDeviceState, TCampaignState } from '@blrms/contracts';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** End states in traffic-light colours: green, orange, red. */
const CAMPAIGN_COLORS: Record<TCampaignState, string> = {
  scheduled: 'purple',
  running: 'processing',
  paused: 'warning',
  completed: 'success',
  'completed-with-failures': 'orange',
  failed: 'error',
  canceled: 'default',
};

const DEVICE_COLORS: Record<TCampaignDeviceState, string> = {
  queued: 'default',
  notified: 'cyan',
  downloading: 'processing',
  downloaded: 'blue',
  verified: 'geekblue',
  updating: 'purple',
  updated: 'success',
  failed: 'error',
  canceled: 'default',
};

export function CampaignStateTag({ state }: { state: TCampaignState }) {
  const { t } = useTranslation();
  return (
    <Tag color={CAMPAIGN_COLORS[state]} data-testid="campaign-state">
      {t(`campaign.states.${state}`)}
    </Tag>
  );
}

export function CampaignDeviceStateTag({ state }: { state: TCampaignDeviceState }) {
  const { t } = useTranslation();
  return (
    <Tag color={DEVICE_COLORS[state]} data-testid="campaign-device-state">
      {t(`campaign.deviceStates.${state}`)}
    </Tag>
  );
}
