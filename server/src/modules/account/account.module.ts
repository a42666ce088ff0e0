import path from 'node:path';
import { Outbox } from '../../platform/mail/outbox.js';
import type { Platform, ServerModule } from '../../platform/module.js';
import type { AuthService } from '../auth/auth.service.js';
import type { CompanyService } from '../company/company.service.js';
import type { MessageDelivery } from '../message/message-delivery.service.js';
import type { MessageService } from '../message/message.service.js';
import type { UserService } from '../user/user.service.js';
import './account.messages.js';
import { AccountRepository } from './account.repository.js';
import { accountRoutes, type AccountRateLimits } from './account.routes.js';
import { AccountService } from './account.service.js';
import { SmsSettingsService } from './sms-settings.service.js';
import { VerifyCodeService } from './verify-code.service.js';

export function accountModule(
  { config, db, sessions, hasher, clock, log }: Platform,
  deps: {
    auth: AuthService;
    companies: CompanyService;
    users: UserService;
    messages: MessageService;
    messageDelivery: MessageDelivery;
  },
  /** Per-IP limits of the public account endpoints (register, SMS, reset). */
  rateLimits: Partial<AccountRateLimits> = {},
): ServerModule {
  const repository = new AccountRepository(db);
  const outbox = new Outbox(path.join(config.dataDir, 'outbox'));
  const smsSettings = new SmsSettingsService(repository, outbox, log, clock);
  // Codes (and every other SMS) go through the message center, by the provider set here.
  deps.messageDelivery.useSmsProvider(() => smsSettings.provider());
  const accounts = new AccountService(
    new VerifyCodeService(repository, clock),
    deps.messages,
    deps.auth,
    deps.companies,
    deps.users,
    sessions,
    hasher,
    clock,
  );
  return {
    name: 'account',
    routes: [
      accountRoutes(accounts, smsSettings, { sendCode: 10, verify: 20, check: 60, ...rateLimits }),
    ],
  };
}
