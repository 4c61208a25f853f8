import { describe, expect, it } from "vitest";
import { translate } from "../../server/i18n/translator.js";
import { countdownWidget } from "./contract.js";

const parse = countdownWidget.parse;

describe("Countdown config", () => {
  it("reads a full config and normalises the target", () => {
    expect(parse({ title: "Launch", emoji: "🚀", target: "2030-01-01T10:00:00+01:00" })).toEqual({
      title: "Launch",
      emoji: "🚀",
      target: "2030-01-01T09:00:00.000Z",
    });
  });

  it("falls back to defaults for missing or malformed values", () => {
    expect(countdownWidget.defaults()).toEqual({ title: "", emoji: "🎉" });
    expect(parse(undefined)).toEqual(countdownWidget.defaults());
    expect(parse("soon")).toEqual(countdownWidget.defaults());
    expect(parse({ title: 5, emoji: "", target: "next tuesday" })).toEqual({ title: "", emoji: "🎉" });
    expect(parse({ target: 1735689600000 })).toEqual(countdownWidget.defaults());
  });

  it("cuts an overlong title and emoji instead of dropping them", () => {
    const config = parse({ title: "x".repeat(300), emoji: ` ${"*".repeat(20)}` });
    expect(config.title).toHaveLength(200);
    expect(config.emoji).toBe("*".repeat(15));
  });
});

describe("Countdown alert rule", () => {
  const rules = (raw: unknown) => countdownWidget.alerts!.rules!(parse(raw));

  it("asks for one reminder at the target only when notify is on", () => {
    const [rule, ...more] = rules({
      title: "Launch",
      emoji: "🚀",
      target: "2030-01-01T10:00:00+01:00",
      notify: true,
    });
    expect(more).toEqual([]);
    expect(rule).toMatchObject({ key: "end", at: "2030-01-01T09:00:00.000Z" });
    expect(translate("en", rule!.text)).toBe("🚀 Launch has ended");
    expect(translate("de", rule!.text)).toBe("🚀 Launch ist abgelaufen");
    expect(rules({ target: "2030-01-01T09:00:00Z", notify: false })).toEqual([]);
    expect(rules({ target: "2030-01-01T09:00:00Z" })).toEqual([]);
    expect(rules({ notify: true })).toEqual([]);
    const untitled = rules({ target: "2030-01-01T09:00:00Z", notify: true })[0]!.text;
    expect(translate("en", untitled)).toBe("🎉 Countdown has ended");
    expect(translate("pl", untitled)).toBe("🎉 Odliczanie: koniec odliczania");
  });

  it("checks the notify key strictly (the parser would drop a bad one silently)", () => {
    const check = countdownWidget.alerts!.check;
    expect(check({ notify: true })).toEqual([]);
    expect(check({})).toEqual([]);
    expect(check({ notify: "yes" })).toEqual([{ path: "/notify", message: "must be boolean" }]);
    expect(parse({ notify: "yes" }).notify).toBeUndefined();
  });
});
