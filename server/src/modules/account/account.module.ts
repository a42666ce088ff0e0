import path from 'node:path';
import { OutboxMailer, SmtpMailer, type Mailer } from '../../platform/mail/mail.js';
import { Outbox } from '../../platform/mail/outbox.js';
import type { Platform, ServerModule } from '../../platform/module.js';
import type { AuthService } from '../auth/auth.service.js';
import type { CompanyService } from '../company/company.service.js';
import type { UserService } from '../user/user.service.js';
import './account.messages.js';
import { AccountRepository } from './account.repository.js';
import { accountRoutes, type AccountRateLimits } from './account.routes.js';
import { AccountService } from './account.service.js';
import { SmsSettingsService } from './sms-settings.service.js';
import { VerifyCodeService } from './verify-code.service.js';

export function accountModule(
  { config, db, sessions, hasher, clock, log }: Platform,
  deps: { auth: AuthService; companies: CompanyService; users: UserService },
  /** Per-IP limits of the public account endpoints (register, SMS, reset). */
  rateLimits: Partial<AccountRateLimits> = {},
): ServerModule {
  const repository = new AccountRepository(db);
  const outbox = new Outbox(path.join(config.dataDir, 'outbox'));
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl)
    : new OutboxMailer(outbox, log, clock);
  const smsSettings = new SmsSettingsService(repository, outbox, log, clock);
  const accounts = new AccountService(
    new VerifyCodeService(repository, clock),
    mailer,
    smsSettings,
    deps.auth,
    deps.companies,
    deps.users,
    sessions,
    hasher,
  );
  return {
    name: 'account',
    routes: [
      accountRoutes(accounts, smsSettings, { sendCode: 10, verify: 20, check: 60, ...rateLimits }),
    ],
  };
}
