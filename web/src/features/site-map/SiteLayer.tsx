import type { TSite } from '@blrms/contracts';
import * as L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { showChina } from '../../shared/map/BaseMap';
import { SitePopup } from './SitePopup';
import { DRAW_ORDER, HEALTH_COLOURS } from './site-health';

/** Closest zoom a fit goes to: one site, or sites in one town, still show the town. */
const FIT_MAX_ZOOM = 12;

/**
 * The sites as circle markers coloured by health (the worst drawn last, on top), each with its
 * name on hover and a popup with its counts on click. `fitKey` changes when another set of sites
 * is asked for (a filter): the map then fits them; a refresh of the same set leaves the view alone.
 */
export function SiteLayer({ map, sites, fitKey }: { map: L.Map; sites: TSite[]; fitKey: string }) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [host] = useState(() => document.createElement('div'));
  const popup = useRef<L.Popup | null>(null);
  const fitted = useRef<string | null>(null);

  useEffect(() => {
    const instance = L.popup({ maxWidth: 280, autoPanPadding: [16, 16] }).setContent(host);
    instance.on('remove', () => setSelectedId(null));
    popup.current = instance;
    return () => {
      instance.remove();
    };
  }, [host]);

  useEffect(() => {
    const rank = (s: TSite) => DRAW_ORDER.indexOf(s.health);
    const layer = L.featureGroup(
      [...sites]
        .sort((a, b) => rank(a) - rank(b))
        .map((site) => {
          const colours = HEALTH_COLOURS[site.health];
          const marker = L.circleMarker([site.lat, site.lng], {
            radius: site.health === 'alarm' ? 10 : 8,
            color: colours.stroke,
            weight: 2,
            opacity: 0.9,
            fillColor: colours.fill,
            fillOpacity: 0.95,
            className: `site-marker site-marker--${site.health} site-marker-${site.id}`,
          });
          // As text: Leaflet would read a string as HTML.
          const label = document.createElement('span');
          label.textContent = site.name;
          marker.bindTooltip(label, { direction: 'top', offset: [0, -10] });
          marker.on('click', () => {
            marker.closeTooltip();
            setSelectedId(site.id);
            popup.current?.setLatLng(marker.getLatLng()).openOn(map);
          });
          return marker;
        }),
    ).addTo(map);
    return () => {
      layer.remove();
    };
  }, [map, sites]);

  useEffect(() => {
    if (fitted.current === fitKey) return;
    fitted.current = fitKey;
    if (sites.length === 0) {
      showChina(map);
      return;
    }
    const bounds = L.latLngBounds(sites.map((s) => [s.lat, s.lng] as L.LatLngTuple));
    map.fitBounds(bounds, { padding: [48, 48], maxZoom: FIT_MAX_ZOOM });
  }, [map, sites, fitKey]);

  const selected = sites.find((s) => s.id === selectedId);
  useEffect(() => {
    // The content is rendered after the popup opened: size it again. A site gone after a refresh
    // or a filter leaves nothing to show.
    if (selected) popup.current?.update();
    else if (selectedId) popup.current?.remove();
  }, [selectedId, selected]);

  return selected ? createPortal(<SitePopup site={selected} />, host) : null;
}
