import { readFileSync } from "node:fs";
import * as hb from "harfbuzzjs";
import { beforeAll, describe, expect, it } from "vitest";
import { decompress } from "wawoff2";
import {
  EMOJI_CSS,
  FULL_FONT,
  makeSlice,
  SLICE_FONT,
  sliceRangeInCss,
} from "../../../scripts/emoji-slice.js";
import {
  commonEmoji,
  SKIN_TONES,
  sliceCodePoints,
  sliceRangeCodePoints,
  unicodeRange,
} from "./emoji-common.js";

/**
 * The committed emoji slice, its @font-face in emoji.css and the list in emoji-common.ts agree,
 * and the slice draws what the installed full font draws. When this fails after a change to the
 * list or to twemoji-colr-font: `npm run emoji:slice`.
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

describe("the common emoji slice", () => {
  const sliceBytes = readFileSync(SLICE_FONT);
  const fullBytes = readFileSync(FULL_FONT);
  let slice: LoadedFont;
  let full: LoadedFont;
  beforeAll(async () => {
    slice = await load(sliceBytes);
    full = await load(fullBytes);
  });

  it("is declared after the full font, with the list's code points as its unicode-range", () => {
    const css = readFileSync(EMOJI_CSS, "utf8");
    expect(sliceRangeInCss(css)).toBe(unicodeRange(sliceRangeCodePoints()));
    expect(css.indexOf('url("./emoji-common.woff2")')).toBeGreaterThan(
      css.indexOf('url("twemoji-colr-font/twemoji.woff2")'),
    );
    expect(css.match(/font-family: "Tessera Emoji";/g)).toHaveLength(2);
  });

  it("maps exactly the list's code points, stays small and is what the script makes of the installed font", async () => {
    expect([...slice.face.collectUnicodes()].sort((a, b) => a - b)).toEqual(sliceCodePoints());
    expect(sliceBytes.length).toBeLessThan(40 * 1024);
    expect(Buffer.from(await makeSlice(fullBytes, sliceCodePoints())).equals(sliceBytes)).toBe(true);
  });

  it("draws every emoji of the list, in colour, as the full font does", () => {
    const texts = [...commonEmoji(), ...SKIN_TONES];
    for (const text of texts) {
      const drawn = drawing(slice, text);
      expect(
        drawn.some((glyph) => glyph.layers.length > 0 && !glyph.notdef),
        text,
      ).toBe(true);
      expect(drawn, text).toEqual(drawing(full, text));
    }
  });

  it("finishes every sequence it starts, and draws it as one glyph as the full font does", () => {
    const own = new Set(sliceCodePoints());
    const started = sequences(full).filter((sequence) => own.has(sequence[0]!));
    expect(started.length).toBeGreaterThan(100);
    for (const sequence of started) {
      const text = String.fromCodePoint(...sequence);
      expect(
        sequence.filter((codePoint) => !own.has(codePoint)).map((codePoint) => codePoint.toString(16)),
        `${text} needs`,
      ).toEqual([]);
      const drawn = drawing(slice, text);
      expect(drawn, text).toHaveLength(1);
      expect(drawn, text).toEqual(drawing(full, text));
    }
  });
});
