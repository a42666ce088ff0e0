import { randomBytes } from 'node:crypto';
import { argon2id, hash, verify } from 'argon2';

export interface HashCost {
  timeCost?: number;
  memoryCost?: number;
  parallelism?: number;
}

/** argon2id with the library's default cost unless told otherwise (tests pass a cheaper one). */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  constructor(private readonly cost: HashCost = {}) {}

  hash(password: string): Promise<string> {
    return hash(password, { ...this.cost, type: argon2id });
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /**
   * Verifying against a throwaway hash when the user does not exist costs the same time as a real
   * check, so response times do not reveal which usernames exist.
   */
  async verifyNobody(password: string): Promise<false> {
    this.dummy ??= this.hash(randomBytes(16).toString('hex'));
    await this.verify(await this.dummy, password);
    return false;
  }
}
