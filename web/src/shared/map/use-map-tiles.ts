import type { TSiteMapSettings } from '@blrms/contracts';
import { useQuery } from '@tanstack/react-query';
import { http } from '../../api/client';

export const MAP_TILES_KEY = ['mapTiles'] as const;
const NO_TILES: TSiteMapSettings = { tileUrl: null, attribution: null };

/**
 * The platform's tile server, or none. A user who may not read the setting (a location editor
 * without the map page) gets the shipped outline instead of an error.
 */
export function useMapTiles(): TSiteMapSettings | undefined {
  const tiles = useQuery({
    queryKey: MAP_TILES_KEY,
    queryFn: () =>
      http
        .get<TSiteMapSettings>('/base/sites/settings', undefined, { silent: true })
        .catch(() => NO_TILES),
    staleTime: 60_000,
  });
  return tiles.data;
}
