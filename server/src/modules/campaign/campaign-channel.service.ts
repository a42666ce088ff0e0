import { CAMPAIGNS_CHANNEL, type TChannel, type TServerMessage } from '@blrms/contracts';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Session } from '../../platform/auth/sessions.js';
import type { Bus } from '../../platform/bus/bus.js';
import {
  SocketIndex,
  companiesWith,
  type ChannelCheck,
  type ChannelKind,
  type ChannelSocket,
} from '../../platform/ws/channels.js';

/** What a user needs in a company to follow its campaigns' progress (`campaigns`). */
const CAMPAIGN_LIST = 'campaign:list';

/**
 * `campaigns` on the console websocket: progress of the campaigns of the companies of the
 * session in which the user holds `campaign:list`.
 */
export class CampaignChannelService implements ChannelKind {
  /** Sockets subscribed to `campaigns`, by company. */
  private readonly subscribers = new SocketIndex();

  constructor(private readonly permissions: Pick<PermissionService, 'has'>) {}

  matches(channel: TChannel): boolean {
    return channel === CAMPAIGNS_CHANNEL;
  }

  held(socket: ChannelSocket): TChannel[] {
    return this.subscribers.keysOf(socket).size > 0 ? [CAMPAIGNS_CHANNEL] : [];
  }

  async check(session: Session): Promise<ChannelCheck> {
    const companies = await companiesWith(this.permissions, session, CAMPAIGN_LIST);
    if (companies.length === 0) return { outcome: 'forbidden' };
    return { outcome: 'allowed', join: (socket) => this.subscribers.replace(socket, companies) };
  }

  leave(socket: ChannelSocket): void {
    this.subscribers.replace(socket, []);
  }

  listen(bus: Bus): (() => void)[] {
    return [
      bus.subscribe('campaign.progress', ({ companyId, campaign }) => {
        const subscribers = this.subscribers.socketsOf(companyId);
        if (!subscribers) return;
        const text = JSON.stringify({
          type: 'campaign-progress',
          campaign,
        } satisfies TServerMessage);
        for (const socket of subscribers) socket.deliver(text);
      }),
    ];
  }
}
