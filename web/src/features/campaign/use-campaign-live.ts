import type { TCampaignProgress } from '@blrms/contracts';
import { CAMPAIGNS_CHANNEL } from '@blrms/contracts';
import { useChannel, useRealtimeMessage } from '../../realtime/use-realtime';

/**
 * Progress of the company's campaigns while mounted, over the `campaigns` channel: `onProgress`
 * gets each message; `onSubscribed` runs when the server confirms the subscription (at first and
 * after a reconnect), from when no change can be missed, so the caller loads its data again.
 */
export function useCampaignProgress(
  onProgress: (progress: TCampaignProgress) => void,
  onSubscribed: () => void,
): void {
  useChannel(CAMPAIGNS_CHANNEL, onSubscribed);
  useRealtimeMessage(['campaign-progress'], (message) => onProgress(message.campaign));
}
