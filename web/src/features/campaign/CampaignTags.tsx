import type { TCampaignDeviceState, TCampaignGate, TCampaignState } from '@blrms/contracts';
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

const GATE_COLORS: Record<TCampaignGate, string> = {
  soak: 'cyan',
  approval: 'gold',
};

/** A campaign's state; a running one held at a gate says so (soaking, awaiting approval). */
export function CampaignStateTag({
  state,
  gate = null,
}: {
  state: TCampaignState;
  gate?: TCampaignGate | null;
}) {
  const { t } = useTranslation();
  if (state === 'running' && gate) {
    return (
      <Tag color={GATE_COLORS[gate]} data-testid="campaign-state">
        {t(`campaign.gateStates.${gate}`)}
      </Tag>
    );
  }
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
