/**
 * What the guard needs from personal API keys (implemented by `modules/api-key`): the platform
 * declares it so that it does not depend on a module.
 */
export interface ApiKeyIdentity {
  keyId: string;
  name: string;
  userId: string;
  username: string;
  companyId: string;
  orgCode: string | null;
  permissions: ReadonlySet<string>;
}

export interface ApiKeyAuthenticator {
  /** The key's identity, or an AppError saying why it is refused (unknown, expired, revoked...). */
  authenticate(key: string, ip: string): Promise<ApiKeyIdentity>;
  /** Counts one call against the key's rate limit: 0 when allowed, else seconds to wait. */
  consume(keyId: string): number;
}
