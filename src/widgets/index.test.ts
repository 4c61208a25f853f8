import type { TSchema } from "@sinclair/typebox";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PRIVATE_WIDGET_TYPES, WIDGET_DEFINITIONS } from "./index.js";

/** Every key a schema names, at any depth, plus the legacy keys the migrations read. */
function keysOf(schema: TSchema, into = new Set(["products", "link", "checked"])): string[] {
  const s = schema as Record<string, unknown>;
  for (const [key, child] of Object.entries((s.properties ?? {}) as Record<string, TSchema>)) {
    into.add(key);
    keysOf(child, into);
  }
  if (s.items) keysOf(s.items as TSchema, into);
  for (const branch of (s.anyOf ?? []) as TSchema[]) keysOf(branch, into);
  return [...into];
}

/**
 * Stored configs come from older versions, hand edits and imports: objects using the schema's
 * own keys (so the parser's paths are reached) with values that are sometimes right, often not.
 */
function storedConfigs(schema: TSchema) {
  const keys = keysOf(schema);
  const plausible = fc.constantFrom(
    "BTC-USD",
    " eth-eur ",
    "https://example.com/a",
    "javascript:alert(1)",
    "#3b82f6",
    "2026-03-02T10:00:00Z",
    "Europe/Berlin",
    "octo/alpha",
    "INBOX",
    "",
    "  ",
    "x",
    "24",
    "1w",
    "pulls",
    "fahrenheit",
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      plausible,
      fc.jsonValue({ maxDepth: 1 }),
      fc.double(),
      fc.array(tie("value"), { maxLength: 5 }),
      tie("record"),
    ),
    record: fc.dictionary(fc.constantFrom(...keys), tie("value"), { maxKeys: 6 }),
  }));
  return fc.oneof(value, fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: 6 }));
}

describe("widget definitions", () => {
  it("keep widgets that read a connected account private", () => {
    expect([...PRIVATE_WIDGET_TYPES].sort()).toEqual(["Codehost", "Codehost Heatmap", "Inbox", "Meetings"]);
  });

  for (const definition of WIDGET_DEFINITIONS) {
    describe(definition.type, () => {
      it("parses any stored value to a complete config that parses to itself", () => {
        const complete = definition.defaults();
        fc.assert(
          fc.property(storedConfigs(definition.config), (raw) => {
            const config = definition.parse(raw) as Record<string, unknown>;
            // Every key the defaults have is there: the widget never meets a missing field.
            for (const key of Object.keys(complete)) expect(config).toHaveProperty(key);
            expect(definition.parse(JSON.parse(JSON.stringify(config)))).toEqual(config);
          }),
          { numRuns: 400 },
        );
      });

      it("starts new widgets with a config its parser keeps as it is", () => {
        const defaults = definition.defaults();
        expect(definition.parse(defaults)).toEqual(defaults);
      });
    });
  }
});
