import type { TSiteMapSettings } from '@blrms/contracts';
import type { Feature, FeatureCollection, Geometry } from 'geojson';
import * as L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import './map.css';

/** China's mainland and islands, which a map shows before it knows better. */
const CHINA_BOUNDS = L.latLngBounds([17.5, 73.5], [53.6, 135]);

/** Shows the whole of China, as large as the map's size allows. */
export function showChina(map: L.Map): void {
  map.fitBounds(CHINA_BOUNDS);
}
const MAX_ZOOM = 18;

type Country = Feature<Geometry, { iso_a2?: string }>;

let outline: Promise<FeatureCollection> | null = null;

/**
 * The shipped basemap: the world's countries at 1:50m, with China's borders as the PRC's
 * standard map draws them (@surbowl/world-geo-json-zh, public domain). Its own chunk, fetched
 * when the first map is drawn without a tile server.
 */
function loadOutline(): Promise<FeatureCollection> {
  outline ??= import('@surbowl/world-geo-json-zh').then((m) => m.default);
  return outline;
}

function countryStyle(feature: Country | undefined): L.PathOptions {
  const china = feature?.properties.iso_a2 === 'CN';
  return {
    color: china ? '#6b7f96' : '#9fb0c3',
    weight: china ? 1.2 : 0.7,
    fillColor: china ? '#fffdf6' : '#f7f7f2',
    fillOpacity: 1,
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A Leaflet map on the configured tile server, or on the shipped outline when there is none (no
 * internet tiles are assumed). `tiles` undefined: the setting is still loading, nothing is drawn
 * under the layers yet. `children` get the map once it exists and add their layers to it.
 */
export function BaseMap({
  tiles,
  children,
  style,
  testId,
}: {
  tiles: TSiteMapSettings | undefined;
  children?: (map: L.Map) => ReactNode;
  style?: CSSProperties;
  testId?: string;
}) {
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const [map, setMap] = useState<L.Map | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const instance = L.map(host.current, {
      zoomSnap: 0.5,
      minZoom: 2,
      maxZoom: MAX_ZOOM,
      zoomControl: false,
      worldCopyJump: true,
      maxBounds: [
        [-85, -240],
        [85, 240],
      ],
    });
    instance.attributionControl.setPrefix(false);
    showChina(instance);
    const observer = new ResizeObserver(() => instance.invalidateSize());
    observer.observe(host.current);
    setMap(instance);
    return () => {
      observer.disconnect();
      instance.remove();
      setMap(null);
    };
  }, []);

  useEffect(() => {
    if (!map) return;
    const zoom = L.control.zoom({ zoomInTitle: t('map.zoomIn'), zoomOutTitle: t('map.zoomOut') });
    zoom.addTo(map);
    return () => {
      zoom.remove();
    };
  }, [map, t]);

  useEffect(() => {
    if (!map || !tiles) return;
    if (tiles.tileUrl) {
      const layer = L.tileLayer(tiles.tileUrl, {
        maxZoom: MAX_ZOOM,
        attribution: tiles.attribution ? escapeHtml(tiles.attribution) : undefined,
      }).addTo(map);
      return () => {
        layer.remove();
      };
    }
    let layer: L.GeoJSON | null = null;
    let gone = false;
    void loadOutline().then((world) => {
      if (gone) return;
      // Polygons take the renderer from these options: one canvas for the whole outline.
      const options: L.GeoJSONOptions & L.PathOptions = {
        style: countryStyle,
        interactive: false,
        renderer: L.canvas({ padding: 0.5 }),
      };
      layer = L.geoJSON(world, options).addTo(map);
      layer.bringToBack();
    });
    return () => {
      gone = true;
      layer?.remove();
    };
  }, [map, tiles]);

  return (
    <>
      <div ref={host} className="blrms-map" style={style} data-testid={testId} />
      {map && children?.(map)}
    </>
  );
}
