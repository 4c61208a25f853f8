import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { Id, ItemList, OneOf, Text } from "./fields.js";
import { parseConfig, readValue, uniqueIds } from "./parse.js";

describe("the config parser", () => {
  const Item = Type.Object({
    id: Id("item"),
    name: Text({ maxLength: 5 }),
    size: Type.Integer({ default: 1 }),
  });
  const Config = Type.Object({
    mode: OneOf(["a", "b"], { default: "a" }),
    note: Type.Optional(Text({ maxLength: 10, minLength: 1, trim: true })),
    ratio: Type.Number({ minimum: 0, maximum: 1, default: 0.5 }),
    items: ItemList(Item),
    tags: Type.Array(Type.String(), { uniqueItems: true, maxItems: 2, minItems: 1, default: ["x"] }),
  });

  it("keeps good fields, defaults bad ones, drops bad items and unknown keys", () => {
    expect(
      parseConfig(Config, {
        mode: "b",
        note: 3,
        ratio: 2,
        items: [{ name: "abcdefgh", size: 1.5 }, { id: "k" }, "x"],
        tags: ["p", "p", "q", "r"],
        extra: true,
      }),
    ).toEqual({ mode: "b", ratio: 0.5, items: [{ id: "item-0", name: "abcde", size: 1 }], tags: ["p", "q"] });
  });

  it("falls back to the list's default when too few items survive", () => {
    expect(parseConfig(Config, { tags: [1, 2] }).tags).toEqual(["x"]);
  });

  it("hands out copies of defaults, so editing one config never changes the next", () => {
    const first = parseConfig(Config, {});
    first.tags.push("changed");
    expect(parseConfig(Config, {}).tags).toEqual(["x"]);
  });

  it("reads one value against a field", () => {
    expect(readValue(Text({ maxLength: 4, trim: true, minLength: 1 }), " abcdef ")).toBe("abc");
    expect(readValue(Text({ maxLength: 3, trim: true, minLength: 1 }), "   ")).toBeUndefined();
    expect(readValue(OneOf(["a", "b"]), "c")).toBeUndefined();
  });

  it("reads -0 as 0, since a saved config could not keep the sign", () => {
    expect(Object.is(readValue(Type.Integer({ minimum: 0 }), -0), 0)).toBe(true);
  });

  it("makes repeated ids unique even when the suffixed id is taken too", () => {
    const ids = uniqueIds([{ id: "a-2" }, { id: "a" }, { id: "a" }, { id: "a" }]).map((i) => i.id);
    expect(new Set(ids).size).toBe(4);
    expect(ids.slice(0, 2)).toEqual(["a-2", "a"]);
  });

  it("refuses a schema with a required key and no default", () => {
    expect(() => parseConfig(Type.Object({ name: Type.String() }), {})).toThrow(/default/);
  });
});
