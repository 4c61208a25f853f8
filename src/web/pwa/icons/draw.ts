import { deflateSync } from "node:zlib";

/**
 * The app's icons, drawn from the header's logo (src/web/app/Logo.tsx: four rounded tiles on a
 * 32-unit grid) in the light theme's colours. `make-icons.ts` writes them into src/web/public/icons;
 * they are committed, so the build needs no image tooling. Node only: never imported by the app.
 */

const ACCENT = "#5b5bd6";
const ACCENT_SOFT = "#b4b8f7";
/** The light theme's surface: the opaque icons' background, as the home screen shows them. */
export const ICON_BACKGROUND = "#ffffff";

interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
  fill: string;
}

const RADIUS = 3;
const TILES: readonly Tile[] = [
  { x: 2, y: 2, width: 13, height: 13, fill: ACCENT },
  { x: 17, y: 2, width: 13, height: 8, fill: ACCENT_SOFT },
  { x: 17, y: 12, width: 13, height: 18, fill: ACCENT },
  { x: 2, y: 17, width: 13, height: 13, fill: ACCENT_SOFT },
];
/** The tiles span 2..30 of the 32-unit grid. */
const LOGO_SPAN = 28;

export interface IconSpec {
  file: string;
  size: number;
  /** Opaque background (maskable and Apple icons: the platform crops them and fills transparency). */
  background: string | null;
  /** The logo's share of the icon's width: a maskable icon keeps it inside the 80 % safe circle. */
  logoShare: number;
}

export const ICONS: readonly IconSpec[] = [
  { file: "icon-192.png", size: 192, background: null, logoShare: LOGO_SPAN / 32 },
  { file: "icon-512.png", size: 512, background: null, logoShare: LOGO_SPAN / 32 },
  // The logo's corners sit at 0.5 · √2 / 2 ≈ 0.35 of the size from the centre: inside the 0.4 circle.
  { file: "icon-maskable-512.png", size: 512, background: ICON_BACKGROUND, logoShare: 0.5 },
  // iOS rounds the corners itself and shows transparency as black.
  { file: "apple-touch-icon.png", size: 180, background: ICON_BACKGROUND, logoShare: 0.66 },
];

/** The logo as an SVG file (transparent, any size): the manifest's scalable icon and the favicon. */
export function logoSvg(): string {
  const rects = TILES.map(
    (t) =>
      `  <rect x="${t.x}" y="${t.y}" width="${t.width}" height="${t.height}" rx="${RADIUS}" fill="${t.fill}"/>`,
  );
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">\n  <title>Tessera</title>\n${rects.join("\n")}\n</svg>\n`;
}

function rgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

function insideTile(tile: Tile, x: number, y: number): boolean {
  if (x < tile.x || x > tile.x + tile.width || y < tile.y || y > tile.y + tile.height) return false;
  // Distance to the nearest point of the tile shrunk by its radius: within the radius is inside.
  const nearestX = Math.min(Math.max(x, tile.x + RADIUS), tile.x + tile.width - RADIUS);
  const nearestY = Math.min(Math.max(y, tile.y + RADIUS), tile.y + tile.height - RADIUS);
  return (x - nearestX) ** 2 + (y - nearestY) ** 2 <= RADIUS ** 2;
}

/** 4 × 4 samples a pixel: smooth enough edges for icons, and exact to compute. */
const SAMPLES = 4;

/** The icon's pixels, RGBA row by row (straight alpha, as PNG stores them). */
export function drawIcon(spec: IconSpec): Uint8Array {
  const { size } = spec;
  const unit = (size * spec.logoShare) / LOGO_SPAN;
  // Grid units from the icon's left/top edge to the logo's: the logo is centred.
  const offset = (size - LOGO_SPAN * unit) / 2 / unit - 2;
  const background = spec.background ? rgb(spec.background) : null;
  const tiles = TILES.map((tile) => ({ tile, color: rgb(tile.fill) }));
  const pixels = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let covered = 0;
      for (let sy = 0; sy < SAMPLES; sy++) {
        for (let sx = 0; sx < SAMPLES; sx++) {
          const x = (px + (sx + 0.5) / SAMPLES) / unit - offset;
          const y = (py + (sy + 0.5) / SAMPLES) / unit - offset;
          const hit = tiles.find(({ tile }) => insideTile(tile, x, y));
          const color = hit?.color ?? background;
          if (!color) continue;
          r += color[0];
          g += color[1];
          b += color[2];
          covered++;
        }
      }
      const at = (py * size + px) * 4;
      if (covered === 0) continue;
      pixels[at] = Math.round(r / covered);
      pixels[at + 1] = Math.round(g / covered);
      pixels[at + 2] = Math.round(b / covered);
      pixels[at + 3] = Math.round((covered / SAMPLES ** 2) * 255);
    }
  }
  return pixels;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 255] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A truecolour-with-alpha PNG; every row uses filter 0 (none), which keeps the reader trivial. */
export function encodePng(pixels: Uint8Array, size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits, RGBA, deflate, no filter method variant, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++)
    rows.set(pixels.subarray(y * size * 4, (y + 1) * size * 4), y * (size * 4 + 1) + 1);
  return Buffer.concat([
    PNG_SIGNATURE,
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(rows, { level: 9 })),
    chunk("IEND", new Uint8Array(0)),
  ]);
}
