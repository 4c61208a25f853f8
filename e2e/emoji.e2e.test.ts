import { mkdirSync } from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type E2eApp, startApp } from "./support/web-app.js";

/**
 * The emoji font in parts (src/web/styles/emoji.css) in Chromium: a dashboard whose only emoji
 * is the Countdown's 🎉 loads the choices slice and neither the common slice nor the full font, one
 * showing a smiley loads the common slice only, and emoji of every kind (each slice's, others,
 * sequences mixing slices and the full font, skin tones, flags, keycaps, VS16 forms) are drawn
 * pixel for pixel as with the full font alone.
 */

const ARTIFACTS = path.resolve("test-results");
const STEP = 60_000;
const FONTS = {
  common: /\/assets\/emoji-common-[\w-]+\.woff2$/,
  choices: /\/assets\/emoji-choices-[\w-]+\.woff2$/,
  full: /\/assets\/twemoji-[\w-]+\.woff2$/,
};

/** Each sample, and whether it is drawn in colour (keycaps, Malayalam and © are not, slice or none). */
const SAMPLES: [string, boolean][] = [
  // In the choices slice.
  ["🎉", true],
  ["a 🎉 b", true],
  ["🚀🎂", true],
  ["✈️", true],
  ["✈", true],
  ["🏖️", true],
  ["⏰️", true],
  // In the common slice.
  ["😀", true],
  ["😀️", true],
  ["❤️", true],
  ["👍🏽", true],
  ["😮‍💨", true],
  ["🙋‍♀️", true],
  ["🙆🏽‍♂️", true],
  ["❤️‍🔥", true],
  ["❤️‍🩹", true],
  // Across the two slices: side by side, and clusters that start in one and go on in the other.
  ["🎉😀", true],
  ["😀🎉", true],
  ["🙋‍♀️🎂", true],
  ["🎉🏽", true],
  ["🚀🏿‍♀️", true],
  ["🚀‍🔥", true],
  ["😀‍🚀", true],
  ["✈️‍❤️", true],
  // In neither slice, or mixing slices and other characters.
  ["🦊", true],
  ["🌍", true],
  ["☀️", true],
  ["⚡", true],
  ["🤙🏽", true],
  ["👩‍🚀", true],
  ["👩🏽‍🚀", true],
  ["👨‍👩‍👧", true],
  ["🏳️‍🌈", true],
  ["🏃‍♀️", true],
  ["🫱🏼‍🫲🏿", true],
  ["🇩🇪", true],
  ["🏴󠁧󠁢󠁳󠁣󠁴󠁿", true],
  ["😀🦊👍🏿", true],
  ["🧑‍🚀", true],
  ["🧑🏽‍🚀", true],
  ["👩‍✈️", true],
  ["🧑‍🎄", true],
  ["🎉🦊", true],
  // No colour here, with or without the slice: the digit of a keycap is in neither face's range,
  // this machine has no Malayalam font, Twemoji's © is grey.
  ["1️⃣", false],
  ["#️⃣", false],
  ["©", false],
  ["ന്‍", false],
];

let app: E2eApp;
let baseUrl: string;
let context: BrowserContext;
let page: Page;

/** Dashboards whose one emoji is their Countdown's, and the slice that draws it. */
interface Board {
  name: string;
  emoji: string;
  slice: "common" | "choices";
  id: string;
}
const BOARDS: Board[] = [
  { name: "Party", emoji: "🎉", slice: "choices", id: "" },
  { name: "Smiles", emoji: "😀", slice: "common", id: "" },
];

/** Counts the pixels of a PNG that are clearly coloured (not white, grey or black). */
function colouredPixels(on: Page, png: Buffer): Promise<number> {
  return on.evaluate(
    async (bytes) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)], { type: "image/png" }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context2d = canvas.getContext("2d")!;
      context2d.drawImage(bitmap, 0, 0);
      const { data } = context2d.getImageData(0, 0, bitmap.width, bitmap.height);
      let coloured = 0;
      for (let i = 0; i < data.length; i += 4) {
        const channels = [data[i]!, data[i + 1]!, data[i + 2]!];
        if (Math.max(...channels) - Math.min(...channels) > 60) coloured++;
      }
      return coloured;
    },
    [...png],
  );
}

beforeAll(async () => {
  mkdirSync(ARTIFACTS, { recursive: true });
  app = await startApp();
  baseUrl = app.baseUrl;
  const ada = await app.person({ name: "Ada" });
  ({ context, page } = ada);
  for (const board of BOARDS) {
    const { id } = await ada.board(board.name, [
      {
        widgetType: "Countdown",
        width: 360,
        height: 220,
        // The Party's is the default, 🎉.
        config: {
          title: "Launch",
          target: "2031-06-01T09:30:00.000Z",
          ...(board.emoji === "🎉" ? {} : { emoji: board.emoji }),
        },
      },
    ]);
    board.id = id;
  }
}, 300_000);

afterAll(() => app?.stop());

describe("the emoji font", () => {
  it.each(BOARDS)(
    "loads only the $slice slice for a dashboard whose one emoji is the Countdown's $emoji",
    async (board) => {
      const fresh = await context.newPage();
      const requested: string[] = [];
      fresh.on("request", (request) => requested.push(new URL(request.url()).pathname));
      await fresh.goto(`${baseUrl}/d/${board.id}`);
      const emoji = fresh.locator('[data-widget-type="Countdown"] .countdown-emoji');
      await expect.poll(() => emoji.textContent()).toBe(board.emoji);
      // The faces in emoji.css's order: the full font's, the common slice's, the choices slice's.
      await expect
        .poll(() =>
          fresh.evaluate(async () => {
            await document.fonts.ready;
            return [...document.fonts].filter((f) => f.family === "Tessera Emoji").map((f) => f.status);
          }),
        )
        .toEqual(["full", "common", "choices"].map((font) => (font === board.slice ? "loaded" : "unloaded")));
      await fresh.screenshot({ path: path.join(ARTIFACTS, `emoji-dashboard-${board.slice}.png`) });
      expect(await colouredPixels(fresh, await emoji.screenshot())).toBeGreaterThan(50);
      const fonts = Object.entries(FONTS).map(([font, url]) => [
        font,
        requested.filter((r) => url.test(r)).length,
      ]);
      expect(Object.fromEntries(fonts)).toEqual({
        common: board.slice === "common" ? 1 : 0,
        choices: board.slice === "choices" ? 1 : 0,
        full: 0,
      });
      await fresh.close();
    },
    STEP,
  );

  it(
    "draws every kind of emoji as the full font alone does",
    async () => {
      const party = BOARDS[0]!;
      await page.goto(`${baseUrl}/d/${party.id}`);
      await page.getByRole("heading", { name: party.name, level: 1 }).waitFor();
      // "Tessera Emoji Full": the full font's face alone, from the same file and range.
      await page.evaluate((samples) => {
        const rule = [...document.styleSheets]
          .flatMap((sheet) => [...sheet.cssRules])
          .find(
            (r): r is CSSFontFaceRule =>
              r instanceof CSSFontFaceRule && /twemoji/.test(r.style.getPropertyValue("src")),
          );
        if (!rule) throw new Error("no @font-face for the full emoji font");
        document.fonts.add(
          new FontFace("Tessera Emoji Full", rule.style.getPropertyValue("src"), {
            unicodeRange: rule.style.getPropertyValue("unicode-range"),
            display: "swap",
          }),
        );
        const sheet = document.createElement("div");
        sheet.id = "emoji-samples";
        Object.assign(sheet.style, {
          position: "fixed",
          inset: "0",
          zIndex: "1000",
          overflow: "auto",
          background: "#fff",
          display: "grid",
          gridTemplateColumns: "repeat(6, 200px)",
          gridAutoRows: "48px",
        });
        samples.forEach(([text], i) => {
          for (const [kind, family] of [
            ["sliced", '"Tessera Emoji", sans-serif'],
            ["full", '"Tessera Emoji Full", sans-serif'],
          ]) {
            const cell = document.createElement("div");
            cell.id = `${kind}-${i}`;
            cell.textContent = text;
            Object.assign(cell.style, {
              fontFamily: family,
              fontSize: "32px",
              lineHeight: "48px",
              color: "#000",
              whiteSpace: "nowrap",
              overflow: "hidden",
            });
            sheet.append(cell);
          }
        });
        document.body.append(sheet);
      }, SAMPLES);
      await page.evaluate(async () => {
        await document.fonts.ready;
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
      });
      expect(
        await page.evaluate(() =>
          [...document.fonts].map((f) => `${f.family.replaceAll('"', "")}: ${f.status}`),
        ),
      ).toEqual([
        "Tessera Emoji: loaded",
        "Tessera Emoji: loaded",
        "Tessera Emoji: loaded",
        "Tessera Emoji Full: loaded",
      ]);
      await page.locator("#emoji-samples").screenshot({ path: path.join(ARTIFACTS, "emoji-samples.png") });

      const different: string[] = [];
      for (const [i, [text, coloured]] of SAMPLES.entries()) {
        const sliced = await page.locator(`#sliced-${i}`).screenshot();
        const full = await page.locator(`#full-${i}`).screenshot();
        if (!sliced.equals(full)) different.push(text);
        if (coloured) expect(await colouredPixels(page, sliced), text).toBeGreaterThan(50);
      }
      expect(different).toEqual([]);
    },
    STEP,
  );
});
