import type { TLoginRequest, TLoginResult } from '@blrms/contracts';
import type { PasswordHasher } from '../../platform/auth/passwords.js';
import type { SessionService } from '../../platform/auth/sessions.js';
import type { Clock } from '../../platform/clock.js';
import type { SysLoginFailureTable } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { LogService } from '../log/log.service.js';
import { toUserInfo, type UserRow, type UserService } from '../user/user.service.js';
import type { AuthRepository } from './auth.repository.js';
import type { CaptchaService } from './captcha.service.js';

export const MAX_LOGIN_FAILURES = 5;
export const LOCK_MS = 10 * 60_000;

export interface LoginContext {
  ip: string;
  userAgent: string | null;
}

export class AuthService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly captcha: CaptchaService,
    private readonly users: UserService,
    private readonly sessions: SessionService,
    private readonly logs: LogService,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly captchaRequired: boolean,
  ) {}

  /**
   * A new captcha image for the key, or an empty string when the platform runs without captchas
   * (`CAPTCHA=off`): the console then leaves the field out of the login form.
   */
  async captchaImage(checkKey: string): Promise<string> {
    return this.captchaRequired ? this.captcha.issue(checkKey) : '';
  }

  /**
   * Order matters: the captcha is spent before anything else, the lockout applies to known and
   * unknown usernames alike, and a frozen account is only revealed to someone who knows its password.
   */
  async login(input: TLoginRequest, context: LoginContext): Promise<TLoginResult> {
    if (this.captchaRequired && !(await this.captcha.consume(input.checkKey, input.captcha))) {
      throw new AppError('captchaInvalid', 400);
    }

    const lockKey = input.username.toLowerCase();
    const failure = await this.repository.findLoginFailure(lockKey);
    const now = this.clock();
    if (failure?.locked_until && failure.locked_until > now) {
      throw new AppError('loginLocked', 429, {
        minutes: Math.ceil((failure.locked_until - now) / 60_000),
      });
    }

    const user = await this.users.findForLogin(input.username);
    const valid = user
      ? await this.hasher.verify(user.password_hash, input.password)
      : await this.hasher.verifyNobody(input.password);
    if (!user || !valid) {
      await this.recordFailure(lockKey, failure);
      throw new AppError('loginFailed', 400);
    }
    if (user.status !== 1) throw new AppError('userFrozen', 403);

    if (failure) await this.repository.clearLoginFailures(lockKey);
    return this.startSession(user, context);
  }

  /** A new session for a user whose credentials were proven (password, or a phone code). */
  async startSession(user: UserRow, context: LoginContext): Promise<TLoginResult> {
    const token = await this.sessions.create({
      userId: user.id,
      companyId: user.company_id,
      ip: context.ip,
      userAgent: context.userAgent,
    });
    const departs = await this.users.departsOf(user.id, user.company_id);
    const current = await this.users.ensureCurrentDepart(user, departs);
    await this.logs.recordLogin({
      companyId: user.company_id,
      userId: user.id,
      username: user.username,
      ip: context.ip,
    });
    return {
      token,
      userInfo: toUserInfo(current),
      departs,
      multiDepart: Math.min(departs.length, 2),
      companies: await this.users.companiesOf(user),
    };
  }

  async logout(token: string | undefined): Promise<void> {
    if (token) await this.sessions.revoke(token);
  }

  /** Failures older than the lock period no longer count, and a served lock starts a new window. */
  private async recordFailure(lockKey: string, previous: SysLoginFailureTable | undefined) {
    const now = this.clock();
    const recent = previous && !previous.locked_until && now - previous.update_time < LOCK_MS;
    const count = recent ? previous.fail_count + 1 : 1;
    const locked = count >= MAX_LOGIN_FAILURES;
    await this.repository.saveLoginFailure({
      username: lockKey,
      fail_count: locked ? 0 : count,
      locked_until: locked ? now + LOCK_MS : null,
      update_time: now,
    });
  }
}
