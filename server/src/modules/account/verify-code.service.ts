import { randomInt, timingSafeEqual } from 'node:crypto';
import { VERIFY_CODE_LENGTH, VERIFY_CODE_RESEND_SECONDS } from '@blrms/contracts';
import { sha256 } from '../../platform/auth/tokens.js';
import type { Clock } from '../../platform/clock.js';
import { newId } from '../../platform/db/ids.js';
import { AppError } from '../../platform/http/app-error.js';
import type { AccountRepository } from './account.repository.js';

export type CodePurpose = 'register' | 'login' | 'reset';

export const CODE_LIFETIME_MS = 10 * 60_000;
/** Wrong guesses a code survives; the next one kills it. */
export const CODE_MAX_ATTEMPTS = 5;
/** Codes per target and purpose per hour: with the attempts, at most 25 guesses an hour. */
export const CODES_PER_HOUR = 5;
const HOUR_MS = 60 * 60_000;

const hashOf = (id: string, code: string) => sha256(`${id}:${code}`);

/**
 * One-time codes for email and phone. Only a salted hash is stored; a code is single-use, lives
 * 10 minutes, dies after 5 wrong guesses, and only the newest code of a target counts.
 */
export class VerifyCodeService {
  constructor(
    private readonly repository: AccountRepository,
    private readonly clock: Clock,
    private readonly generate: () => string = () =>
      String(randomInt(10 ** VERIFY_CODE_LENGTH)).padStart(VERIFY_CODE_LENGTH, '0'),
  ) {}

  /**
   * Creates a code for the target and returns it for delivery. Throttled per target whether or
   * not an account uses it, so the throttle tells nothing about accounts.
   */
  async issue(purpose: CodePurpose, target: string, ip: string | null): Promise<string> {
    const now = this.clock();
    const { count, last } = await this.repository.codeStats(purpose, target, now - HOUR_MS);
    if (last !== null && now - last < VERIFY_CODE_RESEND_SECONDS * 1000) {
      throw new AppError('codeTooSoon', 429, {
        seconds: Math.ceil((last + VERIFY_CODE_RESEND_SECONDS * 1000 - now) / 1000),
      });
    }
    if (count >= CODES_PER_HOUR) throw new AppError('codeTooMany', 429);
    await this.repository.sweepCodes(now - HOUR_MS);
    const code = this.generate();
    const id = newId();
    await this.repository.insertCode({
      id,
      purpose,
      target,
      code_hash: hashOf(id, code),
      attempts: 0,
      ip,
      create_time: now,
      expire_time: now + CODE_LIFETIME_MS,
      used_time: null,
    });
    return code;
  }

  /**
   * Whether the code is the live code of the target. Every comparison spends an attempt; a right
   * code is used up only when `consume` is set, so a request that fails later (a weak password)
   * can be retried with the same code.
   */
  async check(purpose: CodePurpose, target: string, code: string): Promise<string | null> {
    const row = await this.repository.latestCode(purpose, target);
    if (!row || row.used_time !== null || row.expire_time <= this.clock()) return null;
    if (!(await this.repository.claimAttempt(row.id, CODE_MAX_ATTEMPTS))) return null;
    const expected = Buffer.from(row.code_hash, 'hex');
    const actual = Buffer.from(hashOf(row.id, code), 'hex');
    return timingSafeEqual(expected, actual) ? row.id : null;
  }

  /** Checks and uses the code in one go; throws the generic invalid-code error otherwise. */
  async consume(purpose: CodePurpose, target: string, code: string): Promise<void> {
    const id = await this.check(purpose, target, code);
    if (!id) throw new AppError('codeInvalid', 400);
    await this.use(id);
  }

  async use(id: string): Promise<void> {
    if (!(await this.repository.useCode(id, this.clock()))) throw new AppError('codeInvalid', 400);
  }
}
