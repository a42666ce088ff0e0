import { ZSmsSettings, type TSmsSettings, type TSmsSettingsView } from '@blrms/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.js';
import type { Outbox } from '../../platform/mail/outbox.js';
import { HttpSmsProvider, OutboxSmsProvider, type SmsProvider } from '../../platform/sms/sms.js';
import type { AccountRepository } from './account.repository.js';

const SETTING_KEY = 'sms.provider';
const DEFAULT: TSmsSettings = { provider: 'log', url: null, authorization: null };

/**
 * The SMS provider is a platform setting in the database (no environment variable): platform
 * administrators switch between the log/outbox provider and an HTTP gateway at run time.
 */
export class SmsSettingsService {
  constructor(
    private readonly repository: AccountRepository,
    private readonly outbox: Outbox,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {}

  async view(): Promise<TSmsSettingsView> {
    const s = await this.read();
    return { provider: s.provider, url: s.url ?? null, hasAuthorization: !!s.authorization };
  }

  /** An omitted authorization keeps the stored one (the view never returns it); null clears it. */
  async save(input: TSmsSettings): Promise<TSmsSettingsView> {
    const current = await this.read();
    const next: TSmsSettings = {
      provider: input.provider,
      url: input.provider === 'http' ? (input.url ?? null) : null,
      authorization:
        input.provider === 'http'
          ? input.authorization === undefined
            ? (current.authorization ?? null)
            : input.authorization || null
          : null,
    };
    await this.repository.writeSetting(SETTING_KEY, JSON.stringify(next), this.clock());
    return this.view();
  }

  async provider(): Promise<SmsProvider> {
    const s = await this.read();
    if (s.provider === 'http' && s.url) {
      return new HttpSmsProvider(s.url, s.authorization ?? null, this.log);
    }
    return new OutboxSmsProvider(this.outbox, this.log, this.clock);
  }

  private async read(): Promise<TSmsSettings> {
    const raw = await this.repository.readSetting(SETTING_KEY);
    if (!raw) return DEFAULT;
    const parsed = ZSmsSettings.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : DEFAULT;
  }
}
