import type { TAuthEntry, TMenuItem, TUserPermission } from '@blrms/contracts';
import type { Grants, PermissionRow, PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Lang } from '../../platform/http/i18n.js';

const MENU_TYPES = new Set([0, 1]);
/** The component of a menu entry that only groups pages (the spec's RouteView). */
const GROUP_COMPONENT = 'layouts/RouteView';
const BUTTON = 2;
const CLOSE_OBJECT = Buffer.from('}');
/** Built results kept per catalogue load (each ~135 KB for a full catalogue). */
const BUILT_GRANT_SETS_MAX = 64;

function titleOf(row: PermissionRow, lang: Lang): string {
  return lang === 'en-US' ? (row.name_en ?? row.name) : row.name;
}

function authEntries(row: PermissionRow, lang: Lang, withStatus: boolean): TAuthEntry[] {
  if (!row.perms) return [];
  const type = row.perms_type === '2' ? '2' : '1';
  const status = row.status === '0' ? '0' : '1';
  return row.perms.split(',').map((code) => ({
    action: code.trim(),
    describe: titleOf(row, lang),
    type,
    ...(withStatus ? { status } : {}),
  }));
}

/**
 * Builds the console's menu and action lists from the user's grants. A result is reused while the
 * grants it was built from are the current ones, so it expires and is dropped exactly with them.
 */
export class UserPermissionService {
  private readonly cache = new Map<string, { grants: Promise<Grants>; json: Promise<Buffer> }>();
  /** `allAuth` lists the company's catalogue: the same bytes for its users, per catalogue load. */
  private readonly allAuthJson = new WeakMap<PermissionRow[], Map<Lang, Buffer>>();
  /**
   * Results by grant set (`Grants.version`) and language, per catalogue load: users holding the
   * same roles get the same bytes, so after a role change only the first of them builds, and a
   * user whose grants were dropped but came back the same builds nothing. A catalogue reload
   * starts afresh (the old map goes with the old rows).
   */
  private readonly builtByGrants = new WeakMap<PermissionRow[], Map<string, Buffer>>();

  constructor(private readonly permissions: PermissionService) {}

  /**
   * The result as UTF-8 JSON bytes, built, serialised and encoded once per grants: every later
   * request of the menu costs a cache lookup instead of building ~130 KB again, and sends bytes,
   * so that no request makes (and flattens, measures and encodes) a ~260 KB string.
   */
  userPermissionJson(scope: Scope, lang: Lang): Promise<Buffer> {
    // An API key's narrowed grants are made per request: nothing to cache them by.
    // Nor shared with the user's own results: narrowed grants keep the user's `version`.
    if (scope.apiKey) {
      return this.build(this.permissions.grantsIn(scope), scope.companyId, lang, false);
    }
    const key = `${scope.userId}|${scope.companyId}|${lang}`;
    const grants = this.permissions.grantsOf(scope.userId, scope.companyId);
    const cached = this.cache.get(key);
    if (cached?.grants === grants) return cached.json;
    const json = this.build(grants, scope.companyId, lang);
    this.cache.set(key, { grants, json });
    json.catch(() => this.cache.delete(key));
    return json;
  }

  private allAuthOf(catalogue: PermissionRow[], lang: Lang): Buffer {
    const byLang = this.allAuthJson.get(catalogue) ?? new Map<Lang, Buffer>();
    this.allAuthJson.set(catalogue, byLang);
    let json = byLang.get(lang);
    if (json === undefined) {
      json = Buffer.from(JSON.stringify(catalogue.flatMap((p) => authEntries(p, lang, true))));
      byLang.set(lang, json);
    }
    return json;
  }

  private async build(
    grantsOf: Promise<Grants>,
    companyId: string,
    lang: Lang,
    shared = true,
  ): Promise<Buffer> {
    const [catalogue, grants] = await Promise.all([
      this.permissions.catalogue(companyId),
      grantsOf,
    ]);
    if (!shared) return this.menuJson(catalogue, grants, lang);
    const builtHere = this.builtByGrants.get(catalogue) ?? new Map<string, Buffer>();
    this.builtByGrants.set(catalogue, builtHere);
    const key = `${lang}|${grants.version}`;
    const built = builtHere.get(key);
    if (built) return built;
    const json = this.menuJson(catalogue, grants, lang);
    // Oldest first out: a company has a few distinct grant sets, not hundreds.
    if (builtHere.size >= BUILT_GRANT_SETS_MAX) builtHere.delete(builtHere.keys().next().value!);
    builtHere.set(key, json);
    return json;
  }

  private menuJson(catalogue: PermissionRow[], grants: Grants, lang: Lang): Buffer {
    const granted = grants.rows;

    const childrenOf = new Map<string | null, PermissionRow[]>();
    for (const row of granted) {
      const siblings = childrenOf.get(row.parent_id) ?? [];
      siblings.push(row);
      childrenOf.set(row.parent_id, siblings);
    }

    const toItems = (rows: PermissionRow[]): TMenuItem[] =>
      rows
        .filter((row) => MENU_TYPES.has(row.menu_type))
        .map(toItem)
        // A group granted without any page it groups would be a menu entry that leads nowhere.
        .filter(
          (item) =>
            item.component !== GROUP_COMPONENT || (item.children ?? []).some((c) => !c.hidden),
        );
    const toItem = (row: PermissionRow): TMenuItem => {
      const below = childrenOf.get(row.id) ?? [];
      const children = toItems(below);
      const external = row.internal_or_external === 1 || /^https?:\/\//.test(row.url ?? '');
      return {
        id: row.id,
        path: row.url ?? '',
        name: row.component_name ?? row.id,
        component: row.component ?? '',
        redirect: row.redirect,
        hidden: row.hidden === 1,
        alwaysShow: row.always_show === 1,
        route: row.route === 1 ? '1' : '0',
        meta: {
          title: titleOf(row, lang),
          icon: row.icon,
          url: external ? row.url : null,
          keepAlive: row.keep_alive === 1,
          internalOrExternal: row.internal_or_external === 1,
          permissionList: [row, ...below.filter((c) => c.menu_type === BUTTON)].flatMap((p) =>
            authEntries(p, lang, false),
          ),
        },
        ...(children.length > 0 ? { children } : {}),
      };
    };

    // Only granted rows are in the tree, so a menu whose parent is not granted is unreachable.
    const result: Omit<TUserPermission, 'allAuth'> = {
      menu: toItems(childrenOf.get(null) ?? []),
      auth: granted.flatMap((p) => authEntries(p, lang, false)),
    };
    return Buffer.concat([
      Buffer.from(
        `{"menu":${JSON.stringify(result.menu)},"auth":${JSON.stringify(result.auth)},"allAuth":`,
      ),
      this.allAuthOf(catalogue, lang),
      CLOSE_OBJECT,
    ]);
  }
}
