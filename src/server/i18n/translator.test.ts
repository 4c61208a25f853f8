import { describe, expect, it } from "vitest";
import { serverText } from "../../contract/server-text.js";
import { browserLanguages } from "./browser-languages.js";
import en from "./locales/en.json";
import { SERVER_LANGUAGES, translate } from "./translator.js";

/** Every key of the English catalog, plural forms folded into their base key. */
function keysOf(tree: object, prefix = ""): string[] {
  return Object.entries(tree).flatMap(([key, value]) =>
    typeof value === "object"
      ? keysOf(value, `${prefix}${key}.`)
      : [`${prefix}${key.replace(/_(one|other)$/, "")}`],
  );
}

const SAMPLE = {
  emoji: "🎉",
  name: "Nas",
  text: "Milk",
  title: "Standup",
  count: 3,
  pair: "BTC-EUR",
  line: 60000.5,
  quote: "EUR",
  price: 60100.25,
  status: 503,
  from: "Ada",
  subject: "Hi",
};

describe("server texts", () => {
  it("has the web app's eight languages", () => {
    expect(SERVER_LANGUAGES).toEqual(["de", "en", "es", "fr", "it", "nl", "pl", "pt-BR"]);
  });

  it("writes every text in every language, every placeholder filled", () => {
    const keys = [...new Set(keysOf(en))];
    expect(keys.length).toBeGreaterThan(15);
    for (const language of SERVER_LANGUAGES) {
      for (const key of keys) {
        const written = translate(language, serverText(key, SAMPLE));
        expect(written, `${language} ${key}`).not.toMatch(/{{|}}/);
        expect(written, `${language} ${key}`).not.toBe(key);
      }
    }
  });

  it("formats numbers and picks plural forms in the recipient's language", () => {
    const alert = serverText("alerts.crypto.above", {
      pair: "BTC-EUR",
      line: 60000.5,
      quote: "EUR",
      price: 60100.25,
    });
    expect(translate("en", alert)).toBe("BTC-EUR is above 60,000.5 EUR (now 60,100.25)");
    expect(translate("de", alert)).toBe("BTC-EUR liegt über 60.000,5 EUR (jetzt 60.100,25)");
    const summary = (count: number) => translate("pl", serverText("alerts.mail.summary", { count }));
    expect([1, 3, 7, 22].map(summary)).toEqual([
      "1 nowa wiadomość",
      "3 nowe wiadomości",
      "7 nowych wiadomości",
      "22 nowe wiadomości",
    ]);
  });

  it("translates a text given as a value (a default title), and reads English for an unknown language", () => {
    const text = serverText("alerts.starts.soon", {
      title: serverText("alerts.starts.untitledMeeting"),
      count: 1,
    });
    expect(translate("it", text)).toBe("Una riunione inizia tra 1 min");
    expect(translate("ja", text)).toBe("A meeting starts in 1 min");
    // Values go in as they are: a notification is text, never HTML.
    expect(translate("en", serverText("alerts.todo.due", { text: "<b>&</b>" }))).toBe("Due: <b>&</b>");
  });
});

describe("browser languages", () => {
  it("keeps what Accept-Language asks for, most wanted first", () => {
    expect(browserLanguages("en;q=0.5, de-AT, de;q=0.9, *;q=0.1")).toBe("de-AT,de,en");
    expect(browserLanguages("fr-CH, fr;q=0.9, it;q=0")).toBe("fr-CH,fr");
  });

  it("keeps six at most and drops what is not a language tag", () => {
    expect(browserLanguages("a,b,c,d,e,f,g,h")).toBe("a,b,c,d,e,f");
    expect(browserLanguages("'; DROP TABLE user; --")).toBeNull();
    expect(browserLanguages("")).toBeNull();
    expect(browserLanguages(undefined)).toBeNull();
  });
});
