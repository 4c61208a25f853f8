/**
 * Writes the emoji slices: for each slice of src/web/styles/emoji-common.ts, its code points cut
 * out of the installed Twemoji font into its WOFF2 file next to emoji.css, and its @font-face
 * unicode-range into emoji.css. Usage: npm run emoji:slice (after changing the lists or the
 * twemoji-colr-font package; src/web/styles/emoji-common.test.ts fails until then). The build only
 * copies the files.
 *
 * HarfBuzz's subsetter (harfbuzzjs's WASM build, as subset-font uses it) keeps the glyphs of the
 * code points and their ligatures (the glyph closure: 👍🏽, ❤️‍🔥), but that build has no colour
 * support and drops COLR and CPAL. So the colour layers' glyphs are asked for too, and the two
 * tables are written back here from the full font's, for the glyphs kept (COLR version 0, as
 * the full font's; CPAL with only the colours used). The glyph names the subsetter is asked to
 * keep say which new glyph is which old one; the slice then keeps no names.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as hb from "harfbuzzjs";
import { compress, decompress } from "wawoff2";
import {
  EMOJI_SLICES,
  type EmojiSlice,
  rangeCodePoints,
  unicodeRange,
} from "../src/web/styles/emoji-common.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const STYLES = path.join(root, "src/web/styles");
export const FULL_FONT = path.join(root, "node_modules/twemoji-colr-font/twemoji.woff2");
export const EMOJI_CSS = path.join(STYLES, "emoji.css");

/** Where a slice's file is. */
export const sliceFile = (slice: EmojiSlice) => path.join(STYLES, slice.file);

// ---- emoji.css

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The @font-face rule whose src is this file (`url("./file")`, or with a query such as
 * `?no-inline`), and its unicode-range declaration.
 */
const faceOf = (file: string) =>
  new RegExp(String.raw`@font-face\s*{[^}]*url\("\./${escapeRegExp(file)}(\?[^"]*)?"\)[^}]*}`);
const RANGE = /unicode-range:([^;]*);/;

/** Where the @font-face rule of this file starts in the stylesheet, -1 when it has none. */
export function faceIndex(css: string, file: string): number {
  return faceOf(file).exec(css)?.index ?? -1;
}

/** The unicode-range of the file's face in the stylesheet, as written (whitespace folded). */
export function sliceRangeInCss(css: string, file: string): string {
  const face = faceOf(file).exec(css)?.[0];
  const range = face && RANGE.exec(face)?.[1];
  if (!range) throw new Error(`emoji.css has no @font-face for ./${file} with a unicode-range`);
  return range.trim().replace(/\s+/g, " ");
}

/**
 * The stylesheet with the file's face's unicode-range set to `range`: on its declaration's line
 * when it fits in the formatter's 110 columns, else wrapped like the other faces' (as Biome
 * formats them).
 */
export function withSliceRange(css: string, file: string, range: string): string {
  sliceRangeInCss(css, file);
  if (`  unicode-range: ${range};`.length <= 110)
    return css.replace(faceOf(file), (face) => face.replace(RANGE, `unicode-range: ${range};`));
  const lines: string[] = [];
  for (const part of range.split(", ")) {
    const last = lines.length - 1;
    if (last >= 0 && lines[last]!.length + part.length + 2 <= 96) lines[last] += ` ${part},`;
    else lines.push(`${part},`);
  }
  const value = lines.map((line) => `\n    ${line}`).join("");
  return css.replace(faceOf(file), (face) => face.replace(RANGE, `unicode-range:${value.slice(0, -1)};`));
}

// ---- sfnt tables

type Tables = Map<string, Uint8Array>;

const view = (bytes: Uint8Array) => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The tables of a TrueType font, by tag. */
export function readTables(font: Uint8Array): Tables {
  const data = view(font);
  const tables: Tables = new Map();
  for (let i = 0; i < data.getUint16(4); i++) {
    const at = 12 + 16 * i;
    const offset = data.getUint32(at + 8);
    tables.set(
      String.fromCharCode(...font.subarray(at, at + 4)),
      font.subarray(offset, offset + data.getUint32(at + 12)),
    );
  }
  return tables;
}

function checksum(bytes: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < bytes.length; i += 4) {
    const word =
      ((bytes[i] ?? 0) << 24) |
      ((bytes[i + 1] ?? 0) << 16) |
      ((bytes[i + 2] ?? 0) << 8) |
      (bytes[i + 3] ?? 0);
    sum = (sum + (word >>> 0)) >>> 0;
  }
  return sum;
}

/** A TrueType font of these tables (sorted directory, 4-byte aligned, checksums and head's adjustment). */
function writeFont(tables: Tables): Uint8Array {
  const tags = [...tables.keys()].sort();
  let length = 12 + 16 * tags.length;
  for (const tag of tags) length += (tables.get(tag)!.length + 3) & ~3;
  const font = new Uint8Array(length);
  const data = view(font);
  const log2 = Math.floor(Math.log2(tags.length));
  data.setUint32(0, 0x00010000);
  data.setUint16(4, tags.length);
  data.setUint16(6, 16 << log2);
  data.setUint16(8, log2);
  data.setUint16(10, 16 * tags.length - (16 << log2));
  let offset = 12 + 16 * tags.length;
  let head = -1;
  tags.forEach((tag, i) => {
    const table = tables.get(tag)!.slice();
    if (tag === "head") {
      view(table).setUint32(8, 0);
      head = offset;
    }
    const at = 12 + 16 * i;
    for (let k = 0; k < 4; k++) font[at + k] = tag.charCodeAt(k);
    data.setUint32(at + 4, checksum(table));
    data.setUint32(at + 8, offset);
    data.setUint32(at + 12, table.length);
    font.set(table, offset);
    offset += (table.length + 3) & ~3;
  });
  data.setUint32(head + 8, (0xb1b0afba - checksum(font)) >>> 0);
  return font;
}

interface Layer {
  glyph: number;
  palette: number;
}

/** COLR version 0: each colour glyph's layers (a glyph drawn in a palette entry). */
function readColr(colr: Uint8Array): Map<number, Layer[]> {
  const data = view(colr);
  if (data.getUint16(0) !== 0) throw new Error("only COLR version 0 is written back");
  const bases = data.getUint32(4);
  const layers = data.getUint32(8);
  const glyphs = new Map<number, Layer[]>();
  for (let i = 0; i < data.getUint16(2); i++) {
    const at = bases + 6 * i;
    const first = data.getUint16(at + 2);
    const list: Layer[] = [];
    for (let l = first; l < first + data.getUint16(at + 4); l++)
      list.push({ glyph: data.getUint16(layers + 4 * l), palette: data.getUint16(layers + 4 * l + 2) });
    glyphs.set(data.getUint16(at), list);
  }
  return glyphs;
}

function writeColr(glyphs: [number, Layer[]][]): Uint8Array {
  const sorted = [...glyphs].sort((a, b) => a[0] - b[0]);
  const layerCount = sorted.reduce((n, [, layers]) => n + layers.length, 0);
  const colr = new Uint8Array(14 + 6 * sorted.length + 4 * layerCount);
  const data = view(colr);
  const layersAt = 14 + 6 * sorted.length;
  data.setUint16(2, sorted.length);
  data.setUint32(4, 14);
  data.setUint32(8, layersAt);
  data.setUint16(12, layerCount);
  let next = 0;
  sorted.forEach(([glyph, layers], i) => {
    data.setUint16(14 + 6 * i, glyph);
    data.setUint16(14 + 6 * i + 2, next);
    data.setUint16(14 + 6 * i + 4, layers.length);
    for (const layer of layers) {
      data.setUint16(layersAt + 4 * next, layer.glyph);
      data.setUint16(layersAt + 4 * next + 2, layer.palette);
      next++;
    }
  });
  return colr;
}

/** CPAL version 0: each palette's colours (BGRA, as stored). */
function readCpal(cpal: Uint8Array): number[][] {
  const data = view(cpal);
  const entries = data.getUint16(2);
  const records = data.getUint32(8);
  return Array.from({ length: data.getUint16(4) }, (_, p) => {
    const first = data.getUint16(12 + 2 * p);
    return Array.from({ length: entries }, (_, e) => data.getUint32(records + 4 * (first + e)));
  });
}

function writeCpal(palettes: number[][]): Uint8Array {
  const entries = palettes[0]!.length;
  const records = 12 + 2 * palettes.length;
  const cpal = new Uint8Array(records + 4 * entries * palettes.length);
  const data = view(cpal);
  data.setUint16(2, entries);
  data.setUint16(4, palettes.length);
  data.setUint16(6, entries * palettes.length);
  data.setUint32(8, records);
  palettes.forEach((colors, p) => {
    data.setUint16(12 + 2 * p, p * entries);
    colors.forEach((color, e) => {
      data.setUint32(records + 4 * (p * entries + e), color);
    });
  });
  return cpal;
}

/** post version 3: the same metrics, no glyph names. */
function postWithoutNames(post: Uint8Array): Uint8Array {
  const table = post.slice(0, 32);
  view(table).setUint32(0, 0x00030000);
  return table;
}

function glyphNames(font: Uint8Array): string[] {
  const face = new hb.Face(new hb.Blob(font));
  const named = new hb.Font(face);
  const count = view(readTables(font).get("maxp")!).getUint16(4);
  return Array.from({ length: count }, (_, glyph) => named.glyphName(glyph));
}

// ---- HarfBuzz's subsetter (harfbuzzjs/dist/harfbuzz-subset.wasm, called as subset-font does)

interface SubsetWasm {
  memory: WebAssembly.Memory;
  _initialize(): void;
  malloc(size: number): number;
  free(pointer: number): void;
  hb_blob_create(data: number, length: number, mode: number, userData: number, destroy: number): number;
  hb_blob_destroy(blob: number): void;
  hb_blob_get_data(blob: number, length: number): number;
  hb_blob_get_length(blob: number): number;
  hb_face_create(blob: number, index: number): number;
  hb_face_destroy(face: number): void;
  hb_face_reference_blob(face: number): number;
  hb_set_add(set: number, value: number): void;
  hb_set_clear(set: number): void;
  hb_set_invert(set: number): void;
  hb_subset_input_create_or_fail(): number;
  hb_subset_input_destroy(input: number): void;
  hb_subset_input_unicode_set(input: number): number;
  hb_subset_input_glyph_set(input: number): number;
  hb_subset_input_set(input: number, which: number): number;
  hb_subset_input_get_flags(input: number): number;
  hb_subset_input_set_flags(input: number, flags: number): void;
  hb_subset_or_fail(face: number, input: number): number;
}

const HB_MEMORY_MODE_WRITABLE = 2;
const HB_SUBSET_SETS_LAYOUT_FEATURE_TAG = 6;
const HB_SUBSET_FLAGS_NOTDEF_OUTLINE = 0x40;
const HB_SUBSET_FLAGS_GLYPH_NAMES = 0x80;

async function loadSubsetter() {
  const wasm = readFileSync(createRequire(import.meta.url).resolve("harfbuzzjs/dist/harfbuzz-subset.wasm"));
  const hbs = (await WebAssembly.instantiate(wasm)).instance.exports as unknown as SubsetWasm;
  hbs._initialize();
  /** The font cut down to these code points and glyphs and their closure, every layout feature kept, glyph names too. */
  return (font: Uint8Array, codePoints: Iterable<number>, glyphs: Iterable<number>): Uint8Array => {
    const input = hbs.hb_subset_input_create_or_fail();
    if (!input) throw new Error("hb_subset_input_create_or_fail failed");
    const features = hbs.hb_subset_input_set(input, HB_SUBSET_SETS_LAYOUT_FEATURE_TAG);
    hbs.hb_set_clear(features);
    hbs.hb_set_invert(features);
    const unicodes = hbs.hb_subset_input_unicode_set(input);
    for (const codePoint of codePoints) hbs.hb_set_add(unicodes, codePoint);
    const glyphSet = hbs.hb_subset_input_glyph_set(input);
    for (const glyph of glyphs) hbs.hb_set_add(glyphSet, glyph);
    hbs.hb_subset_input_set_flags(
      input,
      hbs.hb_subset_input_get_flags(input) | HB_SUBSET_FLAGS_GLYPH_NAMES | HB_SUBSET_FLAGS_NOTDEF_OUTLINE,
    );

    const data = hbs.malloc(font.length);
    new Uint8Array(hbs.memory.buffer).set(font, data);
    const blob = hbs.hb_blob_create(data, font.length, HB_MEMORY_MODE_WRITABLE, 0, 0);
    const face = hbs.hb_face_create(blob, 0);
    hbs.hb_blob_destroy(blob);
    const subset = hbs.hb_subset_or_fail(face, input);
    hbs.hb_subset_input_destroy(input);
    try {
      if (!subset) throw new Error("hb_subset_or_fail failed");
      const result = hbs.hb_face_reference_blob(subset);
      const at = hbs.hb_blob_get_data(result, 0);
      const bytes = new Uint8Array(hbs.memory.buffer, at, hbs.hb_blob_get_length(result)).slice();
      hbs.hb_blob_destroy(result);
      if (bytes.length === 0) throw new Error("the subsetter made an empty font");
      return bytes;
    } finally {
      if (subset) hbs.hb_face_destroy(subset);
      hbs.hb_face_destroy(face);
      hbs.free(data);
    }
  };
}

// ---- the slice

/** The slice (WOFF2) of the full font (WOFF2) for these code points. */
export async function makeSlice(fullWoff2: Uint8Array, codePoints: readonly number[]): Promise<Uint8Array> {
  const full = await decompress(fullWoff2);
  const fullTables = readTables(full);
  const colours = readColr(fullTables.get("COLR")!);
  const palettes = readCpal(fullTables.get("CPAL")!);
  const fullGlyph = new Map(glyphNames(full).map((name, glyph) => [name, glyph]));
  const oldGlyph = (name: string) => {
    const glyph = fullGlyph.get(name);
    if (glyph === undefined) throw new Error(`the subset has a glyph ${name} the full font has not`);
    return glyph;
  };
  const subset = await loadSubsetter();

  // The glyphs the code points and the sequences made of them need, then those and their layers.
  const kept = glyphNames(subset(full, codePoints, [])).map(oldGlyph);
  const layerGlyphs = kept.flatMap((glyph) => (colours.get(glyph) ?? []).map((layer) => layer.glyph));
  const sliced = subset(full, codePoints, [...kept, ...layerGlyphs]);
  const newGlyph = new Map(glyphNames(sliced).map((name, glyph) => [oldGlyph(name), glyph]));
  const renumber = (glyph: number) => {
    const renumbered = newGlyph.get(glyph);
    if (renumbered === undefined) throw new Error(`the subsetter dropped glyph ${glyph}`);
    return renumbered;
  };

  const colourGlyphs = [...newGlyph.keys()].filter((glyph) => colours.has(glyph));
  const used = [...new Set(colourGlyphs.flatMap((glyph) => colours.get(glyph)!.map((l) => l.palette)))]
    .filter((palette) => palette !== 0xffff)
    .sort((a, b) => a - b);
  const entry = new Map(used.map((palette, index) => [palette, index]));
  const colr = writeColr(
    colourGlyphs.map((glyph) => [
      renumber(glyph),
      colours.get(glyph)!.map((layer) => ({
        glyph: renumber(layer.glyph),
        palette: layer.palette === 0xffff ? 0xffff : entry.get(layer.palette)!,
      })),
    ]),
  );
  const cpal = writeCpal(palettes.map((colors) => used.map((palette) => colors[palette]!)));

  const tables = readTables(sliced);
  tables.set("COLR", colr);
  tables.set("CPAL", cpal);
  tables.set("post", postWithoutNames(tables.get("post")!));
  return compress(writeFont(tables));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const full = readFileSync(FULL_FONT);
  let css = readFileSync(EMOJI_CSS, "utf8");
  for (const slice of EMOJI_SLICES) {
    const bytes = await makeSlice(full, slice.codePoints);
    writeFileSync(sliceFile(slice), bytes);
    css = withSliceRange(css, slice.file, unicodeRange(rangeCodePoints(slice)));
    console.log(
      `${path.relative(root, sliceFile(slice))} (${slice.name}): ${slice.codePoints.length} code points, ` +
        `${bytes.length} bytes (${((100 * bytes.length) / full.length).toFixed(1)}% of the full font's ${full.length})`,
    );
  }
  writeFileSync(EMOJI_CSS, css);
}
