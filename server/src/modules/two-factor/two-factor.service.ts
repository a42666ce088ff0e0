import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from 'node:crypto';
import {
  TWO_FACTOR_RECOVERY_CODES,
  type TTwoFactorDisable,
  type TTwoFactorPolicy,
  type TTwoFactorSetup,
  type TTwoFactorStatus,
} from '@blrms/contracts';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import type { PasswordHasher } from '../../platform/auth/passwords.js';
import type { Scope } from '../../platform/auth/scope.js';
import { sha256 } from '../../platform/auth/tokens.js';
import type { Clock } from '../../platform/clock.js';
import { AppError } from '../../platform/http/app-error.js';
import type { TwoFactorRepository } from './two-factor.repository.js';

const PERIOD_S = 30;
const ISSUER = 'BLRMS';
/** No 0/o, 1/l/i: a recovery code is read off paper. */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

const isTotpCode = (code: string) => /^\d{6}$/.test(code);
const normaliseRecovery = (code: string) => code.toLowerCase().replace(/-/g, '');

function totpOf(secret: string, label = 'user') {
  return new TOTP({
    issuer: ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: PERIOD_S,
    secret: Secret.fromBase32(secret),
  });
}

/** The time step whose code this is, accepting the steps just before and after (clock drift). */
export function matchingStep(secret: string, code: string, now: number): number | null {
  if (!isTotpCode(code)) return null;
  const delta = totpOf(secret).validate({ token: code, timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD_S) + delta;
}

/**
 * Time-based one-time passwords (RFC 6238) as a second login factor. Secrets are kept AES-256-GCM
 * encrypted and never returned once enrolment is confirmed; recovery codes are kept as SHA-256
 * hashes (they are 50 random bits, so a slow hash adds nothing) and work once each; a TOTP code is
 * accepted once: its time step is recorded and older or equal steps are refused afterwards.
 */
export class TwoFactorService {
  private key: Buffer | undefined;

  constructor(
    private readonly repository: TwoFactorRepository,
    private readonly hasher: PasswordHasher,
    private readonly clock: Clock,
  ) {}

  async status(scope: Scope): Promise<TTwoFactorStatus> {
    const row = await this.repository.find(scope.userId);
    const enabled = row?.enabled === 1;
    return {
      enabled,
      required: await this.isRequired(scope.companyId),
      recoveryCodesLeft: enabled ? await this.repository.recoveryCodesLeft(scope.userId) : 0,
    };
  }

  /** Starts (or restarts) an enrolment: a new secret, kept until its first code confirms it. */
  async setup(scope: Scope): Promise<TTwoFactorSetup> {
    const row = await this.repository.find(scope.userId);
    if (row?.enabled === 1) throw new AppError('twoFactorAlreadyEnabled', 400);
    const secret = new Secret({ size: 20 }).base32;
    await this.repository.savePending(scope.userId, await this.encrypt(secret), this.clock());
    return this.setupView(scope.username, secret);
  }

  /** Confirms the enrolment with a code from the app; the recovery codes are shown this once. */
  async enable(scope: Scope, code: string): Promise<string[]> {
    const row = await this.repository.find(scope.userId);
    if (!row) throw new AppError('twoFactorNotStarted', 400);
    if (row.enabled === 1) throw new AppError('twoFactorAlreadyEnabled', 400);
    const codes = await this.confirmEnrolment(scope.userId, row.secret_enc, code);
    if (!codes) throw new AppError('twoFactorCodeInvalid', 400);
    return codes;
  }

  async disable(scope: Scope, input: TTwoFactorDisable): Promise<void> {
    const row = await this.repository.find(scope.userId);
    if (row?.enabled !== 1) throw new AppError('twoFactorNotEnabled', 400);
    if (await this.isRequired(scope.companyId)) throw new AppError('twoFactorRequired', 400);
    const proven = input.code
      ? await this.verify(scope.userId, input.code)
      : await this.hasher.verify(
          await this.repository.passwordHashOf(scope.userId),
          input.password ?? '',
        );
    if (!proven) {
      throw new AppError(input.code ? 'twoFactorCodeInvalid' : 'twoFactorPasswordInvalid', 400);
    }
    await this.repository.remove(scope.userId);
  }

  async isEnabled(userId: string): Promise<boolean> {
    return (await this.repository.find(userId))?.enabled === 1;
  }

  async isRequired(companyId: string): Promise<boolean> {
    return (
      (await this.repository.platformRequired()) ||
      (await this.repository.companyRequired(companyId))
    );
  }

  /** Checks a login code: a TOTP code not used before, or an unused recovery code (spent here). */
  async verify(userId: string, code: string): Promise<boolean> {
    const row = await this.repository.find(userId);
    if (row?.enabled !== 1) return false;
    if (!isTotpCode(code)) {
      return this.repository.useRecoveryCode(userId, sha256(normaliseRecovery(code)), this.clock());
    }
    const step = matchingStep(await this.decrypt(row.secret_enc), code, this.clock());
    return step !== null && this.repository.claimStep(userId, step);
  }

  /** A fresh secret for an enrolment at login (kept in the login challenge until confirmed). */
  async newEncryptedSecret(): Promise<string> {
    return this.encrypt(new Secret({ size: 20 }).base32);
  }

  async setupViewOf(username: string, secretEnc: string): Promise<TTwoFactorSetup> {
    return this.setupView(username, await this.decrypt(secretEnc));
  }

  /** Turns the factor on when the code matches the secret; returns the new recovery codes. */
  async confirmEnrolment(
    userId: string,
    secretEnc: string,
    code: string,
  ): Promise<string[] | null> {
    const step = matchingStep(await this.decrypt(secretEnc), code, this.clock());
    if (step === null) return null;
    const codes = Array.from({ length: TWO_FACTOR_RECOVERY_CODES }, () => {
      const raw = Array.from(
        { length: 10 },
        () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
      ).join('');
      return `${raw.slice(0, 5)}-${raw.slice(5)}`;
    });
    await this.repository.enable(
      userId,
      secretEnc,
      step,
      codes.map((c) => sha256(normaliseRecovery(c))),
      this.clock(),
    );
    return codes;
  }

  /** An administrator's reset: the user logs in with the password alone (or enrols again). */
  async reset(userId: string): Promise<void> {
    await this.repository.remove(userId);
  }

  async enabledAmong(userIds: string[]): Promise<Set<string>> {
    return new Set((await this.repository.enabledAmong(userIds)).map((r) => r.user_id));
  }

  async policy(scope: Scope): Promise<TTwoFactorPolicy> {
    return {
      companyRequired: await this.repository.companyRequired(scope.companyId),
      platformRequired: await this.repository.platformRequired(),
    };
  }

  async setCompanyRequired(scope: Scope, required: boolean): Promise<TTwoFactorPolicy> {
    await this.repository.setCompanyRequired(scope.companyId, required, this.clock());
    return this.policy(scope);
  }

  async setPlatformRequired(scope: Scope, required: boolean): Promise<TTwoFactorPolicy> {
    await this.repository.setPlatformRequired(required, this.clock());
    return this.policy(scope);
  }

  private async setupView(username: string, secret: string): Promise<TTwoFactorSetup> {
    const otpauthUri = totpOf(secret, username).toString();
    return {
      secret,
      otpauthUri,
      qrCode: await QRCode.toDataURL(otpauthUri, { errorCorrectionLevel: 'M', margin: 2 }),
    };
  }

  private async cipherKey(): Promise<Buffer> {
    this.key ??= createHash('sha256')
      .update(await this.repository.encryptionKey(this.clock()))
      .digest();
    return this.key;
  }

  private async encrypt(secret: string): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', await this.cipherKey(), iv);
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), data]).toString('base64url');
  }

  private async decrypt(stored: string): Promise<string> {
    const raw = Buffer.from(stored, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', await this.cipherKey(), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
