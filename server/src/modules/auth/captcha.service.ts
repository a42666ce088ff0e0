import { randomInt } from 'node:crypto';
import type { Clock } from '../../platform/clock.js';
import { sha256 } from '../../platform/auth/tokens.js';
import type { AuthRepository } from './auth.repository.js';
import { renderCaptcha } from './captcha-image.rules.js';

/** Letters and digits that cannot be mistaken for one another (no 0/O/o, 1/l/I/i, 2/Z, 5/S...). */
const ALPHABET = '3456789ABCDEFGHJKMNPQRTUVWXYabcdefghjkmnpqrtuvwxy';
const LENGTH = 4;
const LIFETIME_MS = 60_000;

export type CaptchaText = () => string;

export const randomCaptchaText: CaptchaText = () =>
  Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');

export class CaptchaService {
  constructor(
    private readonly repository: AuthRepository,
    private readonly clock: Clock,
    private readonly text: CaptchaText = randomCaptchaText,
  ) {}

  /** Stores a new code for the key and returns its image as a data URL. */
  async issue(checkKey: string): Promise<string> {
    const code = this.text();
    const now = this.clock();
    await this.repository.saveCaptcha(checkKey, sha256(code.toLowerCase()), now + LIFETIME_MS, now);
    return `data:image/png;base64,${renderCaptcha(code).toString('base64')}`;
  }

  /** Whether the code matches (case-insensitively); the captcha is used up either way. */
  async consume(checkKey: string | undefined, code: string | undefined): Promise<boolean> {
    if (!checkKey) return false;
    const stored = await this.repository.takeCaptcha(checkKey);
    if (!stored || !code || stored.expire_time <= this.clock()) return false;
    return stored.code_hash === sha256(code.toLowerCase());
  }
}
