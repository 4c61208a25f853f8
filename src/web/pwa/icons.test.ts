import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { drawIcon, ICONS, logoSvg, PNG_SIGNATURE } from "./icons/draw";

/** The committed icons (src/web/public/icons) are what make-icons.ts draws, at the manifest's sizes. */

const PUBLIC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../public");

/** The pixels of a PNG as draw.ts encodes it: RGBA, one IDAT, every row with filter 0. */
function decode(png: Buffer) {
  expect(png.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  const width = png.readUInt32BE(16);
  const height = png.readUInt32BE(20);
  const dataLength = png.readUInt32BE(33);
  expect(png.toString("latin1", 37, 41)).toBe("IDAT");
  const rows = inflateSync(png.subarray(41, 41 + dataLength));
  const pixels = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    expect(rows[y * (width * 4 + 1)]).toBe(0);
    pixels.set(rows.subarray(y * (width * 4 + 1) + 1, (y + 1) * (width * 4 + 1)), y * width * 4);
  }
  return { width, height, pixels };
}

describe("the app's icons", () => {
  it("are the drawn logo, at their sizes", () => {
    for (const spec of ICONS) {
      const { width, height, pixels } = decode(readFileSync(path.join(PUBLIC, "icons", spec.file)));
      expect([width, height], spec.file).toEqual([spec.size, spec.size]);
      expect(
        Buffer.from(pixels).equals(Buffer.from(drawIcon(spec))),
        `${spec.file} is stale: run make-icons.ts`,
      ).toBe(true);
    }
    expect(readFileSync(path.join(PUBLIC, "icons/icon.svg"), "utf8")).toBe(logoSvg());
  });

  it("are what the manifest lists: any 192 and 512, a maskable 512 (opaque) and the SVG", () => {
    const manifest = JSON.parse(readFileSync(path.join(PUBLIC, "manifest.webmanifest"), "utf8"));
    expect(manifest).toMatchObject({
      name: "Tessera",
      short_name: "Tessera",
      start_url: "/",
      scope: "/",
      display: "standalone",
    });
    for (const icon of manifest.icons as { src: string; sizes: string; type: string; purpose: string }[]) {
      const file = readFileSync(path.join(PUBLIC, icon.src));
      if (icon.type === "image/svg+xml") continue;
      const { width, pixels } = decode(file);
      expect(icon.sizes).toBe(`${width}x${width}`);
      // A maskable icon is cropped by the platform: it must have no transparent pixel.
      if (icon.purpose === "maskable")
        expect(pixels.filter((_, i) => i % 4 === 3 && pixels[i] !== 255)).toHaveLength(0);
    }
    expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual([
      "192x192 any",
      "512x512 any",
      "512x512 maskable",
      "any any",
    ]);
  });
});
