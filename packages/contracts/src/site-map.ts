import { z } from 'zod';
import { ZCacheBuster, ZId } from './common.js';
import { ZDeviceSeries } from './device.js';

/** Sites one map shows at most; a company with more sees the first ones and `truncated`. */
export const SITE_MAP_MAX_SITES = 5000;
/** Longest tile-server URL template accepted. */
export const SITE_MAP_TILE_URL_MAX = 500;
export const SITE_MAP_ATTRIBUTION_MAX = 200;

export const ZSiteListQuery = ZCacheBuster.extend({
  groupId: ZId.optional().describe('Count only the devices of this device group'),
  series: ZDeviceSeries.optional().describe('Count only the devices of this series'),
}).strict();
export type TSiteListQuery = z.infer<typeof ZSiteListQuery>;

/**
 * What a marker's colour says, worst first: an open (active or acknowledged) alarm, every device
 * offline, some offline, every device online, no devices.
 */
export const SITE_HEALTH = ['alarm', 'offline', 'partial', 'online', 'empty'] as const;
export const ZSiteHealth = z.enum(SITE_HEALTH);
export type TSiteHealth = z.infer<typeof ZSiteHealth>;

export const ZSite = z.object({
  id: ZId,
  name: z.string(),
  path: z.string().describe('Names of the regions above the site and the site, joined by "/"'),
  lat: z.number(),
  lng: z.number(),
  total: z.number().int().describe('Devices at the site or one of its cabinets'),
  online: z.number().int(),
  offline: z.number().int(),
  alarms: z.number().int().describe('Open (active or acknowledged) alarms of those devices'),
  health: ZSiteHealth,
});
export type TSite = z.infer<typeof ZSite>;

export const ZSiteList = z.object({
  sites: z.array(ZSite),
  unplaced: z.number().int().describe('Sites left out because they have no coordinates'),
  truncated: z.boolean().describe(`More than ${SITE_MAP_MAX_SITES} sites: the rest are left out`),
});
export type TSiteList = z.infer<typeof ZSiteList>;

const TILE_PLACEHOLDERS = ['{z}', '{x}', '{y}'] as const;

/**
 * An http(s) URL template naming the tile's {z}, {x} and {y}, e.g.
 * https://tiles.example.com/{z}/{x}/{y}.png; the host may start with `{s}.` (servers that spread
 * tiles over subdomains a, b, c). The host is plain so that the console's content security policy
 * can name it.
 */
export const TILE_URL_PATTERN = /^(https?):\/\/(\{s\}\.)?([a-z0-9.-]+(?::\d{1,5})?)(\/\S*)?$/i;

export const ZTileUrl = z
  .string()
  .trim()
  .max(SITE_MAP_TILE_URL_MAX)
  .regex(TILE_URL_PATTERN, 'must be an http(s) URL')
  .refine((url) => TILE_PLACEHOLDERS.every((p) => url.includes(p)), {
    message: 'must contain {z}, {x} and {y}',
  });

export const ZSiteMapSettings = z
  .object({
    tileUrl: ZTileUrl.nullable().describe(
      'Tile-server URL template; null: the map is drawn on the shipped world outline',
    ),
    attribution: z
      .string()
      .trim()
      .max(SITE_MAP_ATTRIBUTION_MAX)
      .nullable()
      .describe('Credit line the tile server asks for, shown in the map corner (plain text)'),
  })
  .strict();
export type TSiteMapSettings = z.infer<typeof ZSiteMapSettings>;
