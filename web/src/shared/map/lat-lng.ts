/** A place in WGS 84 degrees, as locations store it. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Six decimals: about 0.1 m, finer than any site needs, short enough to read. */
export function roundDegrees(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}
