import { readFileSync } from "node:fs";
import * as hb from "harfbuzzjs";
import { beforeAll, describe, expect, it } from "vitest";
import { decompress } from "wawoff2";
import {
  EMOJI_CSS,
  FULL_FONT,
  faceIndex,
  makeSlice,
  sliceFile,
  sliceRangeInCss,
} from "../../../scripts/emoji-slice.js";
import { DEFAULT_EMOJI, EMOJI_CHOICES } from "../../widgets/countdown/contract";
import { EMOJI_SLICES, rangeCodePoints, unicodeRange, VS16 } from "./emoji-common.js";

/**
 * The committed emoji slices, their @font-face rules in emoji.css and the lists in
 * emoji-common.ts agree, and each slice draws what the installed full font draws. When this
 * fails after a change to the lists or to twemoji-colr-font: `npm run emoji:slice`.
 */

interface LoadedFont {
  face: hb.Face;
  font: hb.Font;
  colors: string[];
}

async function load(woff2: Uint8Array): Promise<LoadedFont> {
  const face = new hb.Face(new hb.Blob(await decompress(woff2)));
  const colors = (face.getColorPalettes()[0]?.colors ?? []).map(
    (c) => `${c.red},${c.green},${c.blue},${c.alpha}`,
  );
  return { face, font: new hb.Font(face), colors };
}

/** How a font draws a text: per glyph its advance and its colour layers (outline and colour). */
function drawing({ face, font, colors }: LoadedFont, text: string) {
  const buffer = new hb.Buffer();
  buffer.addText(text);
  buffer.guessSegmentProperties();
  hb.shape(font, buffer);
  return buffer.getGlyphInfosAndPositions().map((glyph) => ({
    advance: glyph.xAdvance,
    notdef: glyph.codepoint === 0,
    layers: face.getGlyphColorLayers(glyph.codepoint).map((layer) => ({
      outline: font.glyphToPath(layer.glyph),
      color:
        layer.colorIndex === undefined || layer.colorIndex === 0xffff
          ? "foreground"
          : colors[layer.colorIndex],
    })),
  }));
}

/** The full font's multi-character sequences, from its glyph names (u1f64b_200d_2640_fe0f). */
function sequences({ face, font }: LoadedFont): number[][] {
  const maxp = face.referenceTable("maxp")!;
  const count = new DataView(maxp.buffer, maxp.byteOffset, maxp.byteLength).getUint16(4);
  const found: number[][] = [];
  for (let glyph = 0; glyph < count; glyph++) {
    const name = font.glyphName(glyph);
    if (/^u[0-9a-f]+(_[0-9a-f]+)+$/.test(name))
      found.push(
        name
          .slice(1)
          .split("_")
          .map((hex) => Number.parseInt(hex, 16)),
      );
  }
  return found;
}

/** The most bytes a slice may have: the choices are what most dashboards load. */
const MAX_BYTES: Record<string, number> = { common: 40 * 1024, choices: 8 * 1024 };

const fullBytes = readFileSync(FULL_FONT);
let full: LoadedFont;
beforeAll(async () => {
  full = await load(fullBytes);
});

describe("the emoji slices", () => {
  const css = readFileSync(EMOJI_CSS, "utf8");

  it("are faces of the one family, declared after the full font in the lists' order", () => {
    expect(css.match(/font-family: "Tessera Emoji";/g)).toHaveLength(1 + EMOJI_SLICES.length);
    const at = EMOJI_SLICES.map((slice) => faceIndex(css, slice.file));
    expect(at.every((index) => index > css.indexOf('url("twemoji-colr-font/twemoji.woff2")'))).toBe(true);
    expect(at).toEqual([...at].sort((a, b) => a - b));
  });

  it("claim each code point once, and none claims VS16", () => {
    const claimed = EMOJI_SLICES.flatMap(rangeCodePoints);
    expect(claimed).toHaveLength(new Set(claimed).size);
    expect(claimed).not.toContain(VS16);
  });

  it("give the Countdown's default and choices, and only them, the last face", () => {
    const last = EMOJI_SLICES.at(-1)!;
    expect(new Set(last.emoji)).toEqual(new Set([DEFAULT_EMOJI, ...EMOJI_CHOICES]));
  });

  it("finish more than a hundred of the full font's sequences together", () => {
    const starts = new Set(EMOJI_SLICES.flatMap((slice) => slice.codePoints));
    expect(sequences(full).filter((sequence) => starts.has(sequence[0]!)).length).toBeGreaterThan(100);
  });
});

describe.each(EMOJI_SLICES)("the $name emoji slice", (slice) => {
  const sliceBytes = readFileSync(sliceFile(slice));
  let sliced: LoadedFont;
  beforeAll(async () => {
    sliced = await load(sliceBytes);
  });

  it("has the list's code points but VS16 as its unicode-range", () => {
    const css = readFileSync(EMOJI_CSS, "utf8");
    expect(sliceRangeInCss(css, slice.file)).toBe(unicodeRange(rangeCodePoints(slice)));
  });

  it("maps exactly the list's code points, VS16 too, stays small and is what the script makes of the installed font", async () => {
    expect([...sliced.face.collectUnicodes()].sort((a, b) => a - b)).toEqual(slice.codePoints);
    expect(slice.codePoints).toContain(VS16);
    expect(sliceBytes.length).toBeLessThan(MAX_BYTES[slice.name]!);
    expect(Buffer.from(await makeSlice(fullBytes, slice.codePoints)).equals(sliceBytes)).toBe(true);
  });

  it("draws every emoji of its list, in colour, as the full font does", () => {
    for (const text of slice.emoji) {
      const drawn = drawing(sliced, text);
      expect(
        drawn.some((glyph) => glyph.layers.length > 0 && !glyph.notdef),
        text,
      ).toBe(true);
      expect(drawn, text).toEqual(drawing(full, text));
    }
  });

  it("finishes every sequence it starts, and draws it as one glyph as the full font does", () => {
    const own = new Set(slice.codePoints);
    const started = sequences(full).filter((sequence) => own.has(sequence[0]!));
    for (const sequence of started) {
      const text = String.fromCodePoint(...sequence);
      expect(
        sequence.filter((codePoint) => !own.has(codePoint)).map((codePoint) => codePoint.toString(16)),
        `${text} needs`,
      ).toEqual([]);
      const drawn = drawing(sliced, text);
      expect(drawn, text).toHaveLength(1);
      expect(drawn, text).toEqual(drawing(full, text));
    }
  });
});
