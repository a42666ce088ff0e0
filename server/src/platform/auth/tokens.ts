import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits; only its hash is stored, so a database leak does not leak sessions. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
