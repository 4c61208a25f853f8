import { describe, expect, it } from "vitest";
import { customApiWidget } from "./contract.js";

const parse = customApiWidget.parse;
const INTEGRATION = "0193a5b2-7c1d-7e8f-9a0b-1c2d3e4f5a6b";

describe("Custom API config", () => {
  it("starts with nothing to show, refreshing every minute as stats", () => {
    expect(customApiWidget.defaults()).toEqual({ refreshSeconds: 60, display: "stats", fields: [] });
    expect(customApiWidget.data.visitorQuery(customApiWidget.defaults())).toBeNull();
  });

  it("keeps fields, a list and the source as written", () => {
    const config = {
      integrationId: INTEGRATION,
      path: "/api/stats",
      refreshSeconds: 30,
      display: "table",
      fields: [{ id: "cpu", label: "CPU", query: "cpu.total", format: "percent", unit: "%" }],
      list: { query: "services", columns: [{ id: "n", label: "Name", query: "name", format: "text" }] },
    };
    expect(parse(config)).toEqual(config);
    expect(customApiWidget.data.visitorQuery(parse(config))).toEqual({
      integrationId: INTEGRATION,
      path: "/api/stats",
      refreshSeconds: 30,
      fields: config.fields,
      list: config.list,
    });
  });

  it("repairs what it can and drops fields it cannot use", () => {
    const parsed = parse({
      url: "https://example.com/api.json",
      refreshSeconds: 2,
      display: "grid",
      fields: [{ label: "No query" }, { query: "a.b", format: "weird" }, "junk"],
    });
    expect(parsed).toEqual({
      url: "https://example.com/api.json",
      refreshSeconds: 60,
      display: "stats",
      fields: [{ id: "field-1", label: "", query: "a.b", format: "text" }],
    });
    expect(customApiWidget.data.visitorQuery(parsed)).toEqual({
      url: "https://example.com/api.json",
      refreshSeconds: 60,
      fields: parsed.fields,
      list: undefined,
    });
  });

  it("uses the integration when both an integration and an address are stored", () => {
    const parsed = parse({
      integrationId: INTEGRATION,
      url: "https://example.com",
      fields: [{ query: "a" }],
    });
    expect(parsed.url).toBeUndefined();
    expect(parse({ url: "javascript:alert(1)" }).url).toBeUndefined();
  });
});
