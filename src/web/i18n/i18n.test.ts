import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError, describeError } from "../lib/api";
import { expiresText, relativeTime } from "../lib/relative-time";
import { formattingLocale, i18n, LANGUAGES, languageName, pickLanguage, switchLanguage, t } from "./i18n";
import en from "./locales/en.json";

afterEach(async () => {
  vi.unstubAllGlobals();
  await switchLanguage("en");
});

const problem = (code: string, status = 400) =>
  new ApiError(
    status,
    { type: "about:blank", title: "x", status, detail: "English detail", code } as never,
    "English detail",
  );

describe("languages", () => {
  it("finds every catalog file, English first among equals", () => {
    expect(LANGUAGES).toContain("en");
    expect(LANGUAGES).toContain("de");
  });

  it("picks the closest language the reader asks for, else English", () => {
    expect(pickLanguage(["de-AT", "en"])).toBe("de");
    expect(pickLanguage(["ja", "de-CH"])).toBe("de");
    expect(pickLanguage(["fr-FR", "de-CH"])).toBe("fr");
    expect(pickLanguage(["pt-PT"])).toBe("pt-BR");
    expect(pickLanguage(["pt-br"])).toBe("pt-BR");
    expect(pickLanguage(["ja", "ko"])).toBe("en");
    expect(pickLanguage([])).toBe("en");
  });

  it("names each language in itself", () => {
    expect(languageName("de")).toBe("Deutsch");
    expect(languageName("en")).toBe("English");
  });

  it("switches without a reload, loading the catalog on first use", async () => {
    expect(t("common.save")).toBe("Save");
    await switchLanguage("de");
    expect(i18n.language).toBe("de");
    expect(t("common.save")).toBe("Speichern");
    await switchLanguage("en-US");
    expect(t("common.save")).toBe("Save");
  });
});

describe("formatting locale", () => {
  it("keeps the reader's regional variant of the app language, else the language", () => {
    vi.stubGlobal("navigator", { languages: ["en-GB", "de-AT"], language: "en-GB" });
    expect(formattingLocale("en")).toBe("en-GB");
    expect(formattingLocale("de")).toBe("de-AT");
    vi.stubGlobal("navigator", { languages: ["fr-FR"], language: "fr-FR" });
    expect(formattingLocale("de")).toBe("de");
  });

  it("formats a British reader's date the British way", () => {
    vi.stubGlobal("navigator", { languages: ["en-GB"], language: "en-GB" });
    const date = new Date("2030-12-01T09:30:00Z");
    expect(date.toLocaleDateString(formattingLocale("en"), { dateStyle: "medium", timeZone: "UTC" })).toBe(
      "1 Dec 2030",
    );
  });
});

describe("plurals and times in both languages", () => {
  it("uses each language's plural forms", async () => {
    expect(t("errors.retry.seconds", { count: 1 })).toBe("Try again in 1 s.");
    await switchLanguage("de");
    expect(t("errors.retry.seconds", { count: 1 })).toBe("Versuche es in 1 Sekunde noch einmal.");
    expect(t("errors.retry.seconds", { count: 30 })).toBe("Versuche es in 30 Sekunden noch einmal.");
  });

  it("says relative times in the app's language", async () => {
    const now = Date.parse("2026-11-26T12:00:00Z");
    expect(relativeTime("2026-11-26T11:59:50Z", now, "en")).toBe("just now");
    expect(relativeTime("2026-11-25T12:00:00Z", now, "en")).toBe("yesterday");
    await switchLanguage("de");
    expect(relativeTime("2026-11-26T11:59:50Z", now, "de")).toBe("gerade eben");
    expect(relativeTime("2026-11-25T12:00:00Z", now, "de")).toBe("gestern");
    expect(relativeTime("2026-11-26T09:00:00Z", now, "de")).toBe("vor 3 Stunden");
    expect(expiresText(null, now)).toBe("Nie");
  });
});

describe("errors shown to people", () => {
  it("come from the problem's code, never from the English detail", async () => {
    expect(describeError(problem("last_admin", 409))).toBe(en.errors.codes.last_admin);
    await switchLanguage("de");
    const said = describeError(problem("last_admin", 409));
    expect(said).toBe("Der letzte Administrator kann nicht entfernt oder herabgestuft werden.");
    expect(said).not.toContain("English detail");
  });

  it("say how long to wait when the server said so", async () => {
    const limited = new ApiError(429, { code: "rate_limited" } as never, "x", 30);
    expect(describeError(limited)).toBe("Too many requests. Try again in 30 s.");
    await switchLanguage("de");
    expect(describeError(limited)).toBe("Zu viele Anfragen. Versuche es in 30 Sekunden noch einmal.");
  });

  it("fall back by status for a code this version does not know", () => {
    expect(describeError(problem("brand_new_code", 404))).toBe("The request was refused (404).");
    expect(describeError(problem("brand_new_code", 503))).toMatch(/^The server had a problem/);
  });
});
