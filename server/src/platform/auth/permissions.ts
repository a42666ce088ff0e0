import { createHash } from 'node:crypto';
import type { Bus } from '../bus/bus.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/database.js';
import type { SysPermissionTable } from '../db/schema.js';
import { PermissionRepository } from './permission.repository.js';
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

/**
 * Resolves what a user may do in a company. Results are cached per (user, company) and dropped
 * when the bus reports a change to roles, grants or the catalogue.
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
  private readonly grants = new Map<string, { grants: Promise<Grants>; loadedAt: number }>();

  constructor(
    db: Db,
    bus: Bus,
    private readonly clock: Clock,
  ) {
    this.repository = new PermissionRepository(db);
    bus.subscribe('auth.permissions-changed', ({ userId }) => this.invalidate(userId));
    // Changes published elsewhere during the gap never arrived: everything is resolved again.
    bus.subscribe('bus.resumed', () => this.invalidate(undefined));
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
    const grants = this.resolve(userId, companyId);
    this.grants.set(key, { grants, loadedAt: now });
    grants.catch(() => this.grants.delete(key));
    return grants;
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

  private async resolve(userId: string, companyId: string): Promise<Grants> {
    const loaded = this.loadedCatalogue();
    const [catalogue, stamp, all, ids] = await Promise.all([
      this.catalogue(companyId),
      loaded.stamp,
      this.repository.isPlatformAdmin(userId),
      this.repository.grantedIds(userId, companyId),
    ]);
    const granted = new Set(ids);
    const rows = all ? catalogue : catalogue.filter((p) => granted.has(p.id));
    const codes = new Set(rows.flatMap(codesOf));
    const version = fingerprint(`${stamp}|${all ? '*' : rows.map((r) => r.id).join(',')}`);
    return { rows, codes, ids: new Set(rows.map((r) => r.id)), platformAdmin: all, version };
  }

  private invalidate(userId: string | undefined): void {
    if (userId) {
      for (const key of this.grants.keys())
        if (key.startsWith(`${userId}|`)) this.grants.delete(key);
    } else {
      this.grants.clear();
      this.catalogueCache = undefined;
    }
  }
}
