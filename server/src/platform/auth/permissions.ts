import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { SysPermissionTable } from '../db/schema.js';
import { PermissionRepository, roleKey, type HeldRole } from './permission.repository.js';
import type { Scope } from './scope.js';

export type PermissionRow = SysPermissionTable;

export interface Grants {
  /** Granted permission rows, in catalogue order. */
  rows: PermissionRow[];
  codes: ReadonlySet<string>;
  ids: ReadonlySet<string>;
  /** Holds the platform company's admin role: every permission, in every company. */
  platformAdmin: boolean;
  /**
   * Fingerprint of the granted rows as the menu shows them. Sent with every signed-in response so
   * the console can tell its menu is stale without polling; equal on every node for equal grants.
   */
  version: string;
}

const CACHE_TTL_MS = 60_000;
/**
 * Entries each cache holds at most, the least recently used going first: users signed in to a
 * company, roles, and distinct sets of roles. Expiry is checked on read only, so without a bound
 * a node would keep every user, role and set it ever resolved.
 */
const CACHE_LIMITS = { users: 50_000, roles: 20_000, roleSets: 10_000 };

function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('base64url').slice(0, 16);
}

const codesOf = (row: PermissionRow) =>
  row.perms ? row.perms.split(',').map((c) => c.trim()) : [];

/**
 * The grants an API key carries: the codes both the user and the key hold, and the rows whose
 * codes all remain (rows without a code are pages, which a key has no use for). A key never acts
 * as platform administrator: what that role allows beyond codes (other companies' data, granting
 * without a ceiling) needs a session.
 */
function narrowTo(grants: Grants, keyCodes: ReadonlySet<string>): Grants {
  const rows = grants.rows.filter((row) => {
    const codes = codesOf(row);
    return codes.length > 0 && codes.every((c) => keyCodes.has(c));
  });
  return {
    rows,
    codes: new Set([...grants.codes].filter((c) => keyCodes.has(c))),
    ids: new Set(rows.map((r) => r.id)),
    platformAdmin: false,
    version: grants.version,
  };
}

/** A user's grants in one company, as cached. */
interface UserEntry {
  grants: Promise<Grants>;
  /** When the oldest thing they were built from was read (expiry counts from it). */
  loadedAt: number;
  /** The roles (`roleKey`) they were built from; unset until the user's roles are read. */
  roles?: ReadonlySet<string>;
}

/** What one role grants, as cached: shared by every user holding the role. */
interface RoleEntry {
  ids: Promise<readonly string[]>;
  loadedAt: number;
}

/**
 * Resolves what a user may do in a company. Two caches, both dropped by bus events on every node:
 *
 * - per (user, company): the resolved `Grants` (the warm path: no statement at all);
 * - per role: the permission ids it grants. A user whose grants are resolved again (their roles
 *   were given or taken) costs one statement, the roles they hold (with the platform-admin check
 *   folded in); only roles not cached are read, in a second statement;
 * - per (company, set of roles held): the `Grants` built from those roles, shared by every user
 *   holding the same set, and usable only while the catalogue and each of its roles' entries are
 *   the very ones it was built from.
 *
 * `auth.roles-changed` drops the listed roles and every user's grants built from them (or still
 * being built); `auth.permissions-changed` for a user drops that user's grants and, unless it says
 * `rolesUnchanged`, every cached role as well, since it does not say which role changed;
 * without a user it drops everything, as does `bus.resumed`.
 */
export class PermissionService {
  private readonly repository: PermissionRepository;
  private catalogueCache:
    | {
        rows: Promise<PermissionRow[]>;
        stamp: Promise<string>;
        loadedAt: number;
        /** The rows each company sees, made once per load (the same array while it lasts). */
        byCompany: Map<string, Promise<PermissionRow[]>>;
      }
    | undefined;
  private readonly grants: LRUCache<string, UserEntry>;
  private readonly roles: LRUCache<string, RoleEntry>;
  /** Grants built per (company, set of roles held), shared by the users holding that set. */
  private readonly byRoleSet: LRUCache<
    string,
    { grants: Grants; catalogue: object; roles: [string, RoleEntry][]; loadedAt: number }
  >;

  constructor(
    db: Db,
    bus: Bus,
    private readonly clock: Clock,
    limits: typeof CACHE_LIMITS = CACHE_LIMITS,
  ) {
    this.repository = new PermissionRepository(db);
    this.grants = new LRUCache({ max: limits.users });
    this.roles = new LRUCache({ max: limits.roles });
    this.byRoleSet = new LRUCache({ max: limits.roleSets });
    bus.subscribe('auth.permissions-changed', ({ userId, rolesUnchanged }) =>
      userId ? this.userChanged(userId, rolesUnchanged === true) : this.invalidateAll(),
    );
    bus.subscribe('auth.roles-changed', ({ roleIds }) => this.rolesChanged(roleIds));
    // Changes published elsewhere during the gap never arrived: everything is resolved again.
    bus.subscribe('bus.resumed', () => this.invalidateAll());
  }

  /**
   * The catalogue as one company sees it: the shared rows (`company_id` null) and its own (the
   * pages of its published online forms). Another company's rows are never listed, granted or
   * resolved, so every reader of the catalogue names the company.
   */
  catalogue(companyId: string): Promise<PermissionRow[]> {
    const loaded = this.loadedCatalogue();
    let rows = loaded.byCompany.get(companyId);
    if (!rows) {
      rows = loaded.rows.then((all) =>
        all.filter((r) => r.company_id === null || r.company_id === companyId),
      );
      loaded.byCompany.set(companyId, rows);
    }
    return rows;
  }

  private loadedCatalogue() {
    const now = this.clock();
    if (!this.catalogueCache || now - this.catalogueCache.loadedAt >= CACHE_TTL_MS) {
      const rows = this.repository.catalogue();
      // Hashed once per load: every user's version then only hashes their granted ids.
      const stamp = rows.then((r) => fingerprint(JSON.stringify(r)));
      this.catalogueCache = { rows, stamp, loadedAt: now, byCompany: new Map() };
      stamp.catch(() => (this.catalogueCache = undefined));
    }
    return this.catalogueCache;
  }

  grantsOf(userId: string, companyId: string): Promise<Grants> {
    const key = `${userId}|${companyId}`;
    const now = this.clock();
    const cached = this.grants.get(key);
    if (cached && now - cached.loadedAt < CACHE_TTL_MS) return cached.grants;
    // `resolve` records on the entry which roles it is built from, as soon as it knows.
    const entry = { loadedAt: now } as UserEntry;
    entry.grants = this.resolve(userId, companyId, entry);
    this.grants.set(key, entry);
    entry.grants.catch(() => {
      if (this.grants.peek(key) === entry) this.grants.delete(key);
    });
    return entry.grants;
  }

  /**
   * Whether the user holds the platform company's `admin` role, read from the database rather
   * than the grants cache: for checks that must not lag a role change by the cache's seconds.
   */
  isPlatformAdmin(userId: string): Promise<boolean> {
    return this.repository.isPlatformAdmin(userId);
  }

  async has(userId: string, companyId: string, code: string): Promise<boolean> {
    return (await this.grantsOf(userId, companyId)).codes.has(code);
  }

  /**
   * What the request may do: the user's grants, narrowed to the key's codes when it came with an
   * API key. Services deciding for a request use this, so that a key never does more than it was
   * given even where a service checks a second permission.
   */
  async grantsIn(scope: Pick<Scope, 'userId' | 'companyId' | 'apiKey'>): Promise<Grants> {
    const grants = await this.grantsOf(scope.userId, scope.companyId);
    return scope.apiKey ? narrowTo(grants, scope.apiKey.permissions) : grants;
  }

  async hasIn(scope: Pick<Scope, 'userId' | 'companyId' | 'apiKey'>, code: string) {
    return (await this.grantsIn(scope)).codes.has(code);
  }

  private async resolve(userId: string, companyId: string, entry: UserEntry): Promise<Grants> {
    const loaded = this.loadedCatalogue();
    const [catalogue, stamp, held] = await Promise.all([
      this.catalogue(companyId),
      loaded.stamp,
      this.repository.heldRoles(userId, companyId),
    ]);
    // Known from here on: a change to one of these roles drops the entry (before, any role does).
    const keys = held.roles.map(roleKey);
    entry.roles = new Set(keys);
    const all = held.platformAdmin;
    const setKey = `${companyId}|${all ? '*' : [...entry.roles].sort().join(',')}`;
    const now = this.clock();
    const shared = this.byRoleSet.get(setKey);
    if (
      shared &&
      shared.catalogue === loaded &&
      shared.roles.every(([key, role]) => this.roles.get(key) === role) &&
      now - shared.loadedAt < CACHE_TTL_MS
    ) {
      entry.loadedAt = Math.min(entry.loadedAt, shared.loadedAt);
      return shared.grants;
    }
    let rows = catalogue;
    let roles: [string, RoleEntry][] = [];
    if (!all) {
      const granted = await this.grantedBy(held.roles);
      entry.loadedAt = Math.min(entry.loadedAt, granted.loadedAt);
      roles = granted.roles;
      rows = catalogue.filter((p) => granted.ids.has(p.id));
    }
    const codes = new Set(rows.flatMap(codesOf));
    const version = fingerprint(`${stamp}|${all ? '*' : rows.map((r) => r.id).join(',')}`);
    const grants = {
      rows,
      codes,
      ids: new Set(rows.map((r) => r.id)),
      platformAdmin: all,
      version,
    };
    // Valid while the catalogue and each role's entry are the very ones it was built from: a role
    // dropped meanwhile (even while this was being built) makes it unusable, by identity.
    this.byRoleSet.set(setKey, { grants, catalogue: loaded, roles, loadedAt: entry.loadedAt });
    return grants;
  }

  /**
   * The permission ids the roles grant together: cached roles from the cache, the others in one
   * statement (cached from its start, so that a change announced meanwhile drops it too).
   */
  private async grantedBy(
    held: readonly HeldRole[],
  ): Promise<{ ids: ReadonlySet<string>; loadedAt: number; roles: [string, RoleEntry][] }> {
    const now = this.clock();
    const roles: [string, RoleEntry][] = [];
    const missing: HeldRole[] = [];
    for (const role of held) {
      const key = roleKey(role);
      const cached = this.roles.get(key);
      if (cached && now - cached.loadedAt < CACHE_TTL_MS) roles.push([key, cached]);
      else missing.push(role);
    }
    if (missing.length > 0) {
      const read = this.repository.grantsOfRoles(missing);
      for (const role of missing) {
        const key = roleKey(role);
        const entry: RoleEntry = {
          ids: read.then((byRole) => byRole.get(key) ?? []),
          loadedAt: now,
        };
        this.roles.set(key, entry);
        entry.ids.catch(() => {
          if (this.roles.peek(key) === entry) this.roles.delete(key);
        });
        roles.push([key, entry]);
      }
    }
    const ids = new Set<string>();
    let loadedAt = now;
    for (const [, entry] of roles) {
      loadedAt = Math.min(loadedAt, entry.loadedAt);
      for (const id of await entry.ids) ids.add(id);
    }
    return { ids, loadedAt, roles };
  }

  /**
   * The user's grants are dropped. Unless only their roles changed, so may what a role grants,
   * and the event does not say which: every cached role is dropped too (others' grants stay,
   * their own events follow).
   */
  private userChanged(userId: string, rolesUnchanged: boolean): void {
    const prefix = `${userId}|`;
    for (const key of [...this.grants.keys()]) if (key.startsWith(prefix)) this.grants.delete(key);
    if (!rolesUnchanged) {
      this.roles.clear();
      this.byRoleSet.clear();
    }
  }

  /** The roles, and every user's grants built from them or not yet knowing their roles. */
  private rolesChanged(roleIds: readonly string[]): void {
    const keys = new Set<string>();
    for (const id of roleIds) {
      for (const kind of ['r', 'd'] as const) {
        const key = roleKey({ id, kind });
        keys.add(key);
        this.roles.delete(key);
      }
    }
    // Collected first: the caches are not changed while they are being walked.
    const users = [...this.grants.entries()].filter(
      ([, entry]) => !entry.roles || [...entry.roles].some((role) => keys.has(role)),
    );
    for (const [key] of users) this.grants.delete(key);
    const sets = [...this.byRoleSet.entries()].filter(([, set]) =>
      set.roles.some(([role]) => keys.has(role)),
    );
    for (const [key] of sets) this.byRoleSet.delete(key);
  }

  private invalidateAll(): void {
    this.grants.clear();
    this.roles.clear();
    this.byRoleSet.clear();
    this.catalogueCache = undefined;
  }
}
