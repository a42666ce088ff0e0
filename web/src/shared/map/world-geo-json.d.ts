// The package's main file is a GeoJSON FeatureCollection; declared here so that the compiler does
// not infer a type from 300 KB of coordinates.
declare module '@surbowl/world-geo-json-zh' {
  import type { FeatureCollection, MultiPolygon, Polygon } from 'geojson';

  const world: FeatureCollection<Polygon | MultiPolygon, { name: string; iso_a2: string }>;
  export default world;
}
