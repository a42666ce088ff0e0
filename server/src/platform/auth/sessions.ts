import { SESSION_LIFETIME_MS } from '@blrms/contracts';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import { newId } from '../db/ids.js';
import { SessionRepository } from './session.repository.js';
import { newSessionToken, sha256 } from './tokens.js';

export interface Session {
  sessionId: string;
  tokenHash: string;
  userId: string;
  username: string;
  /** The user's default company. */
  companyId: string;
  orgCode: string | null;
  /** Every company the user may act in, the default one included unless it is frozen. */
  companyIds: string[];
  expireTime: number;
}

interface CacheEntry {
  session: Session | null;
  loadedAt: number;
}

/** Long enough to make the hot path free, short enough to bound staleness if a bus event is lost. */
const CACHE_TTL_MS = 30_000;
const CACHE_MAX_ENTRIES = 50_000;

/**
 * Sessions are opaque random tokens stored hashed. Lookups are cached per token hash; logout,
 * password change and user changes evict entries through the bus, on every node, and a node whose
 * bus was cut off drops them all when it is back.
 */
export class SessionService {
  private readonly repository: SessionRepository;
  private readonly cache = new Map<string, CacheEntry>();

  constructor(
    db: Db,
    private readonly bus: Bus,
    private readonly clock: Clock,
  ) {
    this.repository = new SessionRepository(db);
    bus.subscribe('auth.sessions-revoked', ({ tokenHashes, userId }) => {
      for (const h of tokenHashes ?? []) this.cache.delete(h);
      if (userId) this.evictUser(userId);
    });
    bus.subscribe('auth.user-changed', ({ userId }) => this.evictUser(userId));
    // Revocations published elsewhere during the gap never arrived: every session is read again.
    bus.subscribe('bus.resumed', () => this.cache.clear());
  }

  /** Every sign-in (password, phone code, registration) ends here: a frozen company stops all. */
  async create(input: {
    userId: string;
    companyId: string;
    ip: string | null;
    userAgent: string | null;
  }) {
    if (!(await this.repository.companyIsActive(input.companyId))) {
      throw new AppError('companyFrozen', 403);
    }
    const token = newSessionToken();
    const now = this.clock();
    await this.repository.insert({
      id: newId(),
      token_hash: sha256(token),
      user_id: input.userId,
      company_id: input.companyId,
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 512) ?? null,
      create_time: now,
      expire_time: now + SESSION_LIFETIME_MS,
      revoked_time: null,
      last_seen_time: now,
    });
    return token;
  }

  async resolve(token: string): Promise<Session | null> {
    const tokenHash = sha256(token);
    const now = this.clock();
    const cached = this.cache.get(tokenHash);
    if (cached && now - cached.loadedAt < CACHE_TTL_MS) {
      return cached.session && cached.session.expireTime > now ? cached.session : null;
    }
    const session = await this.load(tokenHash, now);
    if (this.cache.size >= CACHE_MAX_ENTRIES) this.cache.clear();
    this.cache.set(tokenHash, { session, loadedAt: now });
    return session;
  }

  /** Whether the session of this token hash is still live (neither revoked nor expired). */
  async isLive(tokenHash: string): Promise<boolean> {
    return (await this.repository.findLive(tokenHash, this.clock())) !== undefined;
  }

  /** For a token that no longer resolves: whether it ended because its user was frozen. */
  endedByFreeze(token: string): Promise<boolean> {
    return this.repository.ownerIsFrozen(sha256(token));
  }

  async revoke(token: string): Promise<void> {
    const tokenHash = sha256(token);
    await this.repository.revokeByHash(tokenHash, this.clock());
    this.cache.delete(tokenHash);
    await this.bus.publish('auth.sessions-revoked', { tokenHashes: [tokenHash] });
  }

  /** The sessions still usable in every company, most recently seen first (platform view). */
  listLive(input: { username?: string; offset: number; limit: number }) {
    return this.repository.listLive({ ...input, now: this.clock() });
  }

  /**
   * Ends one session by its id on every node (force logout): its token stops resolving and its
   * console sockets close. False when it was not live.
   */
  async revokeById(sessionId: string): Promise<boolean> {
    const tokenHash = await this.repository.revokeById(sessionId, this.clock());
    if (tokenHash === null) return false;
    this.cache.delete(tokenHash);
    await this.bus.publish('auth.sessions-revoked', { tokenHashes: [tokenHash] });
    return true;
  }

  async revokeAllOf(userId: string): Promise<void> {
    await this.repository.revokeAllOf(userId, this.clock());
    this.evictUser(userId);
    await this.bus.publish('auth.sessions-revoked', { userId });
  }

  /**
   * A frozen company: the sessions opened in it end, and its users' cached sessions are reloaded
   * without it, on every node.
   */
  async endCompany(companyId: string): Promise<void> {
    const userIds = await this.repository.revokeAllInCompany(companyId, this.clock());
    for (const userId of userIds) {
      this.evictUser(userId);
      await this.bus.publish('auth.sessions-revoked', { userId });
    }
  }

  private async load(tokenHash: string, now: number): Promise<Session | null> {
    const row = await this.repository.findLive(tokenHash, now);
    if (!row) return null;
    const companyIds = await this.repository.activeCompanyIdsOf(row.userId, row.companyId);
    // Recorded once per cache load, which bounds the writes a busy session causes.
    await this.repository.touch(row.sessionId, now);
    return { ...row, tokenHash, companyIds };
  }

  private evictUser(userId: string): void {
    for (const [hash, entry] of this.cache) {
      if (entry.session?.userId === userId) this.cache.delete(hash);
    }
  }
}
