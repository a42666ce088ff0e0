import { setTimeout as sleep } from 'node:timers/promises';
import type {
  TLoginRequest,
  TLoginResult,
  TLoginSecurity,
  TLoginStep,
  TTwoFactorLogin,
  TTwoFactorLoginResult,
  TTwoFactorSetup,
} from '@blrms/contracts';
import type { PasswordHasher } from '../../platform/auth/passwords.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { SessionService } from '../../platform/auth/sessions.js';
import { newSessionToken, sha256 } from '../../platform/auth/tokens.js';
import type { Clock } from '../../platform/clock.js';
import type { SysLoginFailureTable } from '../../platform/db/schema.js';
import { clientSource } from '../../platform/http/client-source.js';
import { AppError, notFound } from '../../platform/http/app-error.js';
import type { LogService } from '../log/log.service.js';
import type { TwoFactorService } from '../two-factor/two-factor.service.js';
import { toUserInfo, type UserRow, type UserService } from '../user/user.service.js';
import type { AuthRepository } from './auth.repository.js';
import type { CaptchaService } from './captcha.service.js';

/** Failures from one source address that lock that address out of the username. */
export const MAX_LOGIN_FAILURES = 5;
export const LOCK_MS = 10 * 60_000;
/** Per failure from other addresses beyond MAX_LOGIN_FAILURES, up to SLOWDOWN_MAX_MS. */
export const SLOWDOWN_STEP_MS = 500;
export const SLOWDOWN_MAX_MS = 2500;
const CHALLENGE_MS = 5 * 60_000;
/** Wrong codes that end a two-factor challenge (each also counts as a failed login). */
export const MAX_CHALLENGE_ATTEMPTS = 5;

export interface LoginContext {
  ip: string;
  userAgent: string | null;
}

export interface AuthOptions {
  captchaRequired: boolean;
  /** Waits out the slowdown; tests pass one that records instead of waiting. */
  delay?: (ms: number) => Promise<void>;
}

const live = (row: SysLoginFailureTable, now: number) =>
  row.locked_until ? row.locked_until > now : now - row.update_time < LOCK_MS;

export class AuthService {
  private readonly delay: (ms: number) => Promise<void>;

  constructor(
    private readonly repository: AuthRepository,
    private readonly captcha: CaptchaService,
    private readonly users: UserService,
    private readonly twoFactor: TwoFactorService,
    private readonly permissions: PermissionService,
    private readonly sessions: SessionService,
    private readonly logs: LogService,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
    private readonly options: AuthOptions,
  ) {
    this.delay = options.delay ?? ((ms) => sleep(ms));
  }

  /**
   * A new captcha image for the key, or an empty string when the platform runs without captchas
   * (`CAPTCHA=off`): the console then leaves the field out of the login form.
   */
  async captchaImage(checkKey: string): Promise<string> {
    return this.options.captchaRequired ? this.captcha.issue(checkKey) : '';
  }

  /**
   * Order matters: the captcha is spent before anything else, the lockout applies to known and
   * unknown usernames alike, and a frozen account is only revealed to someone who knows its
   * password. A user with a second factor gets a challenge, not a session.
   */
  async login(input: TLoginRequest, context: LoginContext): Promise<TLoginStep> {
    if (
      this.options.captchaRequired &&
      !(await this.captcha.consume(input.checkKey, input.captcha))
    ) {
      throw new AppError('captchaInvalid', 400);
    }

    const lockKey = input.username.toLowerCase();
    const source = clientSource(context.ip);
    const user = await this.users.findForLogin(input.username);
    await this.throttle(lockKey, source, user?.id);

    const valid = user
      ? await this.hasher.verify(user.password_hash, input.password)
      : await this.hasher.verifyNobody(input.password);
    if (!user || !valid) {
      await this.recordFailure(lockKey, source);
      throw new AppError('loginFailed', 400);
    }
    if (user.status !== 1) throw new AppError('userFrozen', 403);

    const step = await this.afterFirstFactor(user, context);
    if (!('twoFactor' in step)) await this.repository.clearLoginFailures(lockKey, source);
    return step;
  }

  /**
   * What follows a proven first factor (the password, or a phone code): a challenge when the
   * user has a second factor or must enrol one, a session otherwise. Every login path goes
   * through here, so none of them skips the second factor.
   */
  async afterFirstFactor(user: UserRow, context: LoginContext): Promise<TLoginStep> {
    if (await this.twoFactor.isEnabled(user.id)) return this.challenge(user, 'verify', context);
    if (await this.twoFactor.isRequired(user.company_id)) {
      return this.challenge(user, 'enrol', context);
    }
    return this.startSession(user, context);
  }

  /**
   * The second step: the code of a `verify` challenge, or the first code of an `enrol` one (which
   * turns the factor on and returns the recovery codes). Wrong codes count as failed logins of
   * the source, and the fifth ends the challenge.
   */
  async completeTwoFactor(
    input: TTwoFactorLogin,
    context: LoginContext,
  ): Promise<TTwoFactorLoginResult> {
    const { challenge, user } = await this.liveChallenge(input.challenge);
    const lockKey = user.username.toLowerCase();
    const source = clientSource(context.ip);
    await this.throttle(lockKey, source, user.id);

    let recoveryCodes: string[] | null = null;
    let valid: boolean;
    if (challenge.kind === 'verify') {
      valid = await this.twoFactor.verify(user.id, input.code);
    } else {
      recoveryCodes = challenge.secret_enc
        ? await this.twoFactor.confirmEnrolment(user.id, challenge.secret_enc, input.code)
        : null;
      valid = recoveryCodes !== null;
    }
    if (!valid) {
      await this.recordFailure(lockKey, source);
      const attempts = await this.repository.countChallengeAttempt(challenge.token_hash);
      if (attempts >= MAX_CHALLENGE_ATTEMPTS) {
        await this.repository.takeChallenge(challenge.token_hash);
      }
      throw new AppError('twoFactorCodeInvalid', 400);
    }
    if (!(await this.repository.takeChallenge(challenge.token_hash))) {
      throw new AppError('twoFactorChallengeInvalid', 400);
    }
    await this.repository.clearLoginFailures(lockKey, source);
    const result = await this.startSession(user, context);
    return recoveryCodes ? { ...result, recoveryCodes } : result;
  }

  /** The QR code and secret of an `enrol` challenge (the same secret on every call). */
  async challengeSetup(token: string): Promise<TTwoFactorSetup> {
    const { challenge, user } = await this.liveChallenge(token);
    if (challenge.kind !== 'enrol') throw new AppError('twoFactorChallengeInvalid', 400);
    let secretEnc = challenge.secret_enc;
    if (!secretEnc) {
      secretEnc = await this.twoFactor.newEncryptedSecret();
      await this.repository.setChallengeSecret(challenge.token_hash, secretEnc);
    }
    return this.twoFactor.setupViewOf(user.username, secretEnc);
  }

  /** A new session for a user whose credentials were proven (every factor the user needs). */
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

  /** Failed logins by source and the second factor of users the administrator can see. */
  async loginSecurity(scope: Scope, ids: string[]): Promise<TLoginSecurity[]> {
    const users = await this.repository.usersByIds(ids, await this.companyOfAdmin(scope));
    const failures = await this.repository.loginFailures(
      users.map((u) => u.username.toLowerCase()),
    );
    const withFactor = await this.twoFactor.enabledAmong(users.map((u) => u.id));
    const now = this.clock();
    return users.map((u) => {
      const sources = failures
        .filter((f) => f.username === u.username.toLowerCase() && live(f, now))
        .map((f) => ({
          ip: f.ip,
          failCount: f.locked_until ? MAX_LOGIN_FAILURES : f.fail_count,
          lockedUntil: f.locked_until ? new Date(f.locked_until).toISOString() : null,
        }));
      return {
        userId: u.id,
        twoFactorEnabled: withFactor.has(u.id),
        locked: sources.some((s) => s.lockedUntil !== null),
        sources,
      };
    });
  }

  /** Lifts every lock and forgets every failure of the user's username. */
  async unlock(scope: Scope, userId: string): Promise<void> {
    const user = await this.repository.findUser(userId, await this.companyOfAdmin(scope));
    if (!user) throw notFound();
    await this.repository.clearLoginFailures(user.username.toLowerCase());
  }

  async resetTwoFactor(scope: Scope, userId: string): Promise<void> {
    const user = await this.repository.findUser(userId, await this.companyOfAdmin(scope));
    if (!user) throw notFound();
    await this.twoFactor.reset(user.id);
  }

  /** Platform administrators act on every company's users (null); others on their company's. */
  private async companyOfAdmin(scope: Scope): Promise<string | null> {
    const grants = await this.permissions.grantsIn(scope);
    return grants.platformAdmin ? null : scope.companyId;
  }

  /**
   * A source that failed MAX_LOGIN_FAILURES times is locked out of the username. Any other source
   * is only slowed down once the username collected that many failures elsewhere, and not at all
   * from an address the user has had a session from: the owner's usual place keeps working while
   * strangers hammer the account. The delay is served before the password is checked, so the
   * answer's timing says nothing about it. `source` is the address as `clientSource` counts it
   * (an IPv6 client by its /64).
   */
  private async throttle(
    lockKey: string,
    source: string,
    userId: string | undefined,
  ): Promise<void> {
    const now = this.clock();
    const rows = (await this.repository.loginFailures([lockKey])).filter((r) => live(r, now));
    const own = rows.find((r) => r.ip === source);
    if (own?.locked_until) {
      throw new AppError('loginLocked', 429, {
        minutes: Math.ceil((own.locked_until - now) / 60_000),
      });
    }
    const elsewhere = rows
      .filter((r) => r.ip !== source)
      .reduce((sum, r) => sum + (r.locked_until ? MAX_LOGIN_FAILURES : r.fail_count), 0);
    if (elsewhere < MAX_LOGIN_FAILURES) return;
    if (userId && (await this.hasSessionFrom(userId, source))) return;
    await this.delay(
      Math.min(SLOWDOWN_MAX_MS, SLOWDOWN_STEP_MS * (elsewhere - MAX_LOGIN_FAILURES + 1)),
    );
  }

  /** Whether the user has had a session from this source: their usual place, not a stranger. */
  private async hasSessionFrom(userId: string, source: string): Promise<boolean> {
    const addresses = await this.repository.sessionAddresses(userId);
    return addresses.some((ip) => clientSource(ip) === source);
  }

  /** Failures older than the lock period no longer count, and a served lock starts a new window. */
  private async recordFailure(lockKey: string, source: string): Promise<void> {
    const now = this.clock();
    const [previous] = (await this.repository.loginFailures([lockKey])).filter(
      (r) => r.ip === source,
    );
    const recent = previous && !previous.locked_until && now - previous.update_time < LOCK_MS;
    const count = recent ? previous.fail_count + 1 : 1;
    const locked = count >= MAX_LOGIN_FAILURES;
    await this.repository.saveLoginFailure({
      username: lockKey,
      ip: source,
      fail_count: locked ? MAX_LOGIN_FAILURES : count,
      locked_until: locked ? now + LOCK_MS : null,
      update_time: now,
    });
  }

  private async challenge(
    user: UserRow,
    kind: 'verify' | 'enrol',
    context: LoginContext,
  ): Promise<TLoginStep> {
    const token = newSessionToken();
    const now = this.clock();
    await this.repository.saveChallenge(
      {
        token_hash: sha256(token),
        user_id: user.id,
        ip: context.ip,
        user_agent: context.userAgent?.slice(0, 255) ?? null,
        kind,
        secret_enc: null,
        attempts: 0,
        expire_time: now + CHALLENGE_MS,
      },
      now,
    );
    return { twoFactor: kind, challenge: token, expiresIn: CHALLENGE_MS / 1000 };
  }

  private async liveChallenge(token: string) {
    const challenge = await this.repository.findChallenge(sha256(token));
    const user = challenge && (await this.repository.findUser(challenge.user_id, null));
    if (!challenge || challenge.expire_time <= this.clock() || !user || user.status !== 1) {
      throw new AppError('twoFactorChallengeInvalid', 400);
    }
    return { challenge, user };
  }
}
