import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import opentype from 'opentype.js';
import { PNG } from 'pngjs';

/*
 * The captcha is drawn into a pixel buffer and sent as a PNG: an SVG of glyph paths can be read
 * back by matching the paths against the font (issue 14, item 5), pixels with rotated, overlapping
 * characters, lines and dots cannot. Pure JavaScript (opentype.js reads the glyph outlines of a
 * font shipped as an npm package, pngjs encodes), so no system library or font is needed.
 */

export const CAPTCHA_WIDTH = 120;
export const CAPTCHA_HEIGHT = 40;
/** Supersampling per axis: edges are anti-aliased from 4×4 samples a pixel. */
const SAMPLES = 4;

const fontFile = readFileSync(
  createRequire(import.meta.url).resolve(
    '@fontsource/roboto-mono/files/roboto-mono-latin-700-normal.woff',
  ),
);
const font = opentype.parse(
  fontFile.buffer.slice(fontFile.byteOffset, fontFile.byteOffset + fontFile.byteLength),
);

type Point = [number, number];
type Rgb = [number, number, number];

const random = (min: number, max: number) => min + (randomInt(1_000_000) / 1_000_000) * (max - min);

/** Outline of a path as closed polygons, curves cut into straight segments. */
function contoursOf(path: opentype.Path, transform: (p: Point) => Point): Point[][] {
  const contours: Point[][] = [];
  let current: Point[] = [];
  let last: Point = [0, 0];
  const STEPS = 8;
  for (const c of path.commands) {
    if (c.type === 'M') {
      if (current.length > 2) contours.push(current);
      last = [c.x, c.y];
      current = [transform(last)];
    } else if (c.type === 'L') {
      last = [c.x, c.y];
      current.push(transform(last));
    } else if (c.type === 'Q') {
      const [x0, y0] = last;
      for (let i = 1; i <= STEPS; i++) {
        const t = i / STEPS;
        const u = 1 - t;
        current.push(
          transform([
            u * u * x0 + 2 * u * t * c.x1 + t * t * c.x,
            u * u * y0 + 2 * u * t * c.y1 + t * t * c.y,
          ]),
        );
      }
      last = [c.x, c.y];
    } else if (c.type === 'C') {
      const [x0, y0] = last;
      for (let i = 1; i <= STEPS; i++) {
        const t = i / STEPS;
        const u = 1 - t;
        current.push(
          transform([
            u * u * u * x0 + 3 * u * u * t * c.x1 + 3 * u * t * t * c.x2 + t * t * t * c.x,
            u * u * u * y0 + 3 * u * u * t * c.y1 + 3 * u * t * t * c.y2 + t * t * t * c.y,
          ]),
        );
      }
      last = [c.x, c.y];
    } else if (current.length > 2) {
      contours.push(current);
      current = [];
    }
  }
  if (current.length > 2) contours.push(current);
  return contours;
}

class Canvas {
  readonly png = new PNG({ width: CAPTCHA_WIDTH, height: CAPTCHA_HEIGHT });

  fill(color: Rgb) {
    for (let i = 0; i < CAPTCHA_WIDTH * CAPTCHA_HEIGHT; i++) this.set(i, color, 1);
  }

  dot(x: number, y: number, color: Rgb) {
    if (x < 0 || y < 0 || x >= CAPTCHA_WIDTH || y >= CAPTCHA_HEIGHT) return;
    this.set(y * CAPTCHA_WIDTH + x, color, 1);
  }

  /** Non-zero winding scanline fill of the polygons, blended by the share of samples covered. */
  polygons(contours: Point[][], color: Rgb) {
    const coverage = new Float32Array(CAPTCHA_WIDTH * CAPTCHA_HEIGHT);
    const edges = contours.flatMap((points) =>
      points.map((p, i) => [p, points[(i + 1) % points.length] as Point] as const),
    );
    const weight = 1 / (SAMPLES * SAMPLES);
    for (let sy = 0; sy < CAPTCHA_HEIGHT * SAMPLES; sy++) {
      const y = (sy + 0.5) / SAMPLES;
      const crossings: { x: number; dir: number }[] = [];
      for (const [[x0, y0], [x1, y1]] of edges) {
        if (y0 <= y === y1 <= y) continue;
        crossings.push({ x: x0 + ((y - y0) / (y1 - y0)) * (x1 - x0), dir: y1 > y0 ? 1 : -1 });
      }
      crossings.sort((a, b) => a.x - b.x);
      let winding = 0;
      const row = Math.floor(y) * CAPTCHA_WIDTH;
      for (let i = 0; i < crossings.length - 1; i++) {
        winding += (crossings[i] as { dir: number }).dir;
        if (winding === 0) continue;
        const from = Math.max(0, Math.ceil((crossings[i] as { x: number }).x * SAMPLES - 0.5));
        const to = Math.min(
          CAPTCHA_WIDTH * SAMPLES - 1,
          Math.floor((crossings[i + 1] as { x: number }).x * SAMPLES - 0.5),
        );
        for (let sx = from; sx <= to; sx++) {
          const index = row + Math.floor(sx / SAMPLES);
          coverage[index] = (coverage[index] ?? 0) + weight;
        }
      }
    }
    coverage.forEach((alpha, i) => {
      if (alpha > 0) this.set(i, color, Math.min(1, alpha));
    });
  }

  line(from: Point, to: Point, width: number, color: Rgb) {
    const [x0, y0] = from;
    const [x1, y1] = to;
    const length = Math.hypot(x1 - x0, y1 - y0) || 1;
    const nx = (-(y1 - y0) / length) * (width / 2);
    const ny = ((x1 - x0) / length) * (width / 2);
    this.polygons(
      [
        [
          [x0 + nx, y0 + ny],
          [x1 + nx, y1 + ny],
          [x1 - nx, y1 - ny],
          [x0 - nx, y0 - ny],
        ],
      ],
      color,
    );
  }

  private set(index: number, [r, g, b]: Rgb, alpha: number) {
    const data = this.png.data;
    const o = index * 4;
    data[o] = Math.round((data[o] ?? 0) * (1 - alpha) + r * alpha);
    data[o + 1] = Math.round((data[o + 1] ?? 0) * (1 - alpha) + g * alpha);
    data[o + 2] = Math.round((data[o + 2] ?? 0) * (1 - alpha) + b * alpha);
    data[o + 3] = 255;
  }
}

const dark = (): Rgb => [randomInt(20, 130), randomInt(20, 130), randomInt(20, 130)];
const light = (): Rgb => [randomInt(215, 256), randomInt(215, 256), randomInt(215, 256)];
const middle = (): Rgb => [randomInt(90, 200), randomInt(90, 200), randomInt(90, 200)];

/** The code as a PNG: each character rotated, scaled and shifted at random, under lines and dots. */
export function renderCaptcha(code: string): Buffer {
  const canvas = new Canvas();
  canvas.fill(light());
  for (let i = 0; i < 3; i++) {
    canvas.line(
      [random(-5, 20), random(0, CAPTCHA_HEIGHT)],
      [random(CAPTCHA_WIDTH - 20, CAPTCHA_WIDTH + 5), random(0, CAPTCHA_HEIGHT)],
      random(1, 2),
      middle(),
    );
  }
  const slot = (CAPTCHA_WIDTH - 10) / code.length;
  [...code].forEach((char, i) => {
    const size = random(26, 32);
    const glyph = font.getPath(char, 0, 0, size);
    const box = glyph.getBoundingBox();
    const cx = (box.x1 + box.x2) / 2;
    const cy = (box.y1 + box.y2) / 2;
    const angle = random(-0.45, 0.45);
    const [sin, cos] = [Math.sin(angle), Math.cos(angle)];
    const centreX = 5 + slot * (i + 0.5) + random(-3, 3);
    const centreY = CAPTCHA_HEIGHT / 2 + random(-3, 3);
    canvas.polygons(
      contoursOf(glyph, ([x, y]) => [
        centreX + (x - cx) * cos - (y - cy) * sin,
        centreY + (x - cx) * sin + (y - cy) * cos,
      ]),
      dark(),
    );
  });
  for (let i = 0; i < 2; i++) {
    canvas.line(
      [random(-5, 20), random(5, CAPTCHA_HEIGHT - 5)],
      [random(CAPTCHA_WIDTH - 20, CAPTCHA_WIDTH + 5), random(5, CAPTCHA_HEIGHT - 5)],
      random(1, 1.8),
      dark(),
    );
  }
  for (let i = 0; i < 120; i++) {
    canvas.dot(randomInt(CAPTCHA_WIDTH), randomInt(CAPTCHA_HEIGHT), middle());
  }
  return PNG.sync.write(canvas.png);
}
