import {
  locationPath,
  SITE_MAP_MAX_SITES,
  ZSiteMapSettings,
  type TSiteList,
  type TSiteListQuery,
  type TSiteMapSettings,
} from '@blrms/contracts';
import type { DataRuleService } from '../../platform/auth/data-rules.js';
import type { PermissionService } from '../../platform/auth/permissions.js';
import type { Scope } from '../../platform/auth/scope.js';
import type { Clock } from '../../platform/clock.js';
import { forbidden } from '../../platform/http/app-error.js';
import { DEVICE_RULES } from '../device/stats-columns.rules.js';
import type { SiteMapRepository } from './site-map.repository.js';
import { allowImages, siteHealth, tileSource } from './site-map.rules.js';

const SETTING_KEY = 'site_map.tiles';
const NO_TILES: TSiteMapSettings = { tileUrl: null, attribution: null };
/**
 * How long a node reuses the setting for the console's security policy; a change made on another
 * node applies to pages loaded after that.
 */
const SETTINGS_CACHE_MS = 10_000;

/** The site a count row belongs to: the location itself, or the site a cabinet stands in. */
function siteOf(row: { id: string; kind: string; parent_id: string | null }): string {
  return row.kind === 'cabinet' && row.parent_id ? row.parent_id : row.id;
}

/**
 * Sites on a map: a company's sites with coordinates, coloured by the health of their devices
 * (those at the site or one of its cabinets, as far as the caller's data rules show them), and the
 * platform's tile-server setting.
 */
export class SiteMapService {
  private cached: { at: number; settings: TSiteMapSettings } | null = null;

  constructor(
    private readonly repository: SiteMapRepository,
    private readonly permissions: PermissionService,
    private readonly dataRules: DataRuleService,
    private readonly clock: Clock,
  ) {}

  async list(scope: Scope, query: TSiteListQuery): Promise<TSiteList> {
    const companyId = scope.companyId;
    const rules = await this.dataRules.filterFor(scope, DEVICE_RULES);
    const [locations, unplaced, devices, alarms] = await Promise.all([
      this.repository.sitesAndRegions(companyId),
      this.repository.unplacedSites(companyId),
      this.repository.deviceCounts(companyId, query, rules),
      this.repository.openAlarmCounts(companyId, query, rules),
    ]);
    const byId = new Map(locations.map((l) => [l.id, { name: l.name, parentId: l.parent_id }]));
    const counts = new Map<string, { total: number; online: number }>();
    for (const row of devices) {
      const siteId = siteOf(row);
      const site = counts.get(siteId) ?? { total: 0, online: 0 };
      site.total += Number(row.n);
      if (row.status === 'online') site.online += Number(row.n);
      counts.set(siteId, site);
    }
    const alarmCounts = new Map<string, number>();
    for (const row of alarms) {
      const siteId = siteOf(row);
      alarmCounts.set(siteId, (alarmCounts.get(siteId) ?? 0) + Number(row.n));
    }
    const filtered = query.groupId !== undefined || query.series !== undefined;
    const sites: TSiteList['sites'] = [];
    let truncated = false;
    for (const location of locations) {
      if (location.kind !== 'site' || location.latitude === null || location.longitude === null)
        continue;
      const { total, online } = counts.get(location.id) ?? { total: 0, online: 0 };
      // A filter asks where those devices are: sites without any are left off the map.
      if (filtered && total === 0) continue;
      if (sites.length === SITE_MAP_MAX_SITES) {
        truncated = true;
        break;
      }
      const open = alarmCounts.get(location.id) ?? 0;
      sites.push({
        id: location.id,
        name: location.name,
        path: locationPath(location.id, byId),
        lat: location.latitude,
        lng: location.longitude,
        total,
        online,
        offline: total - online,
        alarms: open,
        health: siteHealth({ total, online, alarms: open }),
      });
    }
    return { sites, unplaced, truncated };
  }

  /** Whoever may view the map reads it: the console needs it to draw the tiles. */
  settings(): Promise<TSiteMapSettings> {
    return this.read();
  }

  /** One setting for every company's map, so only platform administrators change it. */
  async setSettings(scope: Scope, input: TSiteMapSettings): Promise<TSiteMapSettings> {
    const grants = await this.permissions.grantsIn(scope);
    if (!grants.platformAdmin) throw forbidden('adminPlatformOnly');
    const next: TSiteMapSettings = {
      tileUrl: input.tileUrl || null,
      attribution: input.tileUrl ? input.attribution || null : null,
    };
    await this.repository.writeSetting(SETTING_KEY, JSON.stringify(next), this.clock());
    this.cached = { at: this.clock(), settings: next };
    return next;
  }

  /** The console's security policy, allowing the tile server's images when one is set. */
  async contentSecurityPolicy(policy: string): Promise<string> {
    const now = this.clock();
    if (!this.cached || now - this.cached.at > SETTINGS_CACHE_MS) {
      this.cached = { at: now, settings: await this.read() };
    }
    const source = this.cached.settings.tileUrl ? tileSource(this.cached.settings.tileUrl) : null;
    return source ? allowImages(policy, source) : policy;
  }

  private async read(): Promise<TSiteMapSettings> {
    const raw = await this.repository.readSetting(SETTING_KEY);
    if (!raw) return NO_TILES;
    try {
      const parsed = ZSiteMapSettings.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : NO_TILES;
    } catch {
      return NO_TILES;
    }
  }
}
