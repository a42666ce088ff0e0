import * as L from 'leaflet';
import { useEffect } from 'react';
import { BaseMap, showChina } from './BaseMap';
import { roundDegrees, type LatLng } from './lat-lng';
import { useMapTiles } from './use-map-tiles';

/** Zoom the picker opens at around a place already set. */
const PLACE_ZOOM = 11;

function PickLayer({
  map,
  value,
  onPick,
}: {
  map: L.Map;
  value: LatLng | null;
  onPick: (value: LatLng) => void;
}) {
  useEffect(() => {
    const pick = (e: L.LeafletMouseEvent) => {
      const at = e.latlng.wrap();
      onPick({ lat: roundDegrees(at.lat), lng: roundDegrees(at.lng) });
    };
    map.on('click', pick);
    map.getContainer().style.cursor = 'crosshair';
    return () => {
      map.off('click', pick);
    };
  }, [map, onPick]);

  // Opens on the place already set, or on China.
  useEffect(() => {
    if (value) map.setView([value.lat, value.lng], PLACE_ZOOM);
    else showChina(map);
    // Only when the dialog opens: a pick must not move the map under the pointer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [map]);

  useEffect(() => {
    if (!value) return;
    const marker = L.circleMarker([value.lat, value.lng], {
      radius: 8,
      color: '#ffffff',
      weight: 3,
      fillColor: '#1677ff',
      fillOpacity: 1,
      className: 'coordinate-picker-marker',
      interactive: false,
    }).addTo(map);
    return () => {
      marker.remove();
    };
  }, [map, value]);

  return null;
}

/** The picker's map (its own chunk with Leaflet): a click picks the place. */
export default function PickMap({
  value,
  onPick,
}: {
  value: LatLng | null;
  onPick: (value: LatLng) => void;
}) {
  const tiles = useMapTiles();
  return (
    <BaseMap tiles={tiles} style={{ height: 360 }} testId="coordinate-picker-map">
      {(map) => <PickLayer map={map} value={value} onPick={onPick} />}
    </BaseMap>
  );
}
