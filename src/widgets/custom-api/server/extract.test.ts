import { describe, expect, it } from "vitest";
import type { CustomApiField } from "../contract.js";
import { FAKE_STATS } from "../fake.js";
import { answerValue, extract } from "./extract.js";
import { refreshPolicy } from "./source.js";

const field = (id: string, query: string, more: Partial<CustomApiField> = {}): CustomApiField => ({
  id,
  label: id,
  query,
  format: "text",
  ...more,
});

describe("Custom API queries", () => {
  const json = FAKE_STATS();

  it("picks values out of the JSON, keeping numbers numbers and shortening objects to JSON text", () => {
    const data = extract(json, {
      fields: [
        field("cpu", "cpu.total", { format: "percent" }),
        field("disk", '"disk-usage"."/"'),
        field("first", "services[0].name"),
        field("up", "length(services[?state == 'running'])"),
        field("healthy", "healthy", { format: "status" }),
        field("missing", "no.such.key", { unit: "°C" }),
        field("object", "nested.deep"),
      ],
    });
    expect(data.fields.map((f) => f.value)).toEqual([12.5, 0.61, "web", 2, true, null, '{"list":[1,2,3]}']);
    expect(data.fields[0]).toEqual({ id: "cpu", label: "cpu", value: 12.5, format: "percent", unit: null });
    expect(data.fields[5]!.unit).toBe("°C");
    expect(data.rows).toBeUndefined();
  });

  it("says why a query failed at run time, in that field only", () => {
    const data = extract(json, { fields: [field("bad", "abs(status)"), field("good", "version")] });
    expect(data.fields[0]).toMatchObject({
      value: null,
      error: expect.stringMatching(/abs\(\) expected argument 1/),
    });
    expect(data.fields[1]).toMatchObject({ value: "2.4.1" });
    expect(data.fields[1]!.error).toBeUndefined();
  });

  it("makes rows of a list, each column read from one item", () => {
    const columns = [
      { id: "name", label: "Name", query: "name", format: "text" as const },
      { id: "state", label: "State", query: "state", format: "status" as const },
      { id: "odd", label: "Odd", query: "abs(name)", format: "number" as const },
    ];
    const data = extract(json, { fields: [], list: { query: "services", columns } });
    expect(data.rows).toEqual([
      { name: "web", state: "running", odd: null },
      { name: "db", state: "exited", odd: null },
      { name: "cache", state: "running", odd: null },
    ]);
    expect(data.rowsTotal).toBe(3);
    const notList = extract(json, { fields: [], list: { query: "cpu", columns } });
    expect(notList).toMatchObject({ rows: [], listError: "The list query gave an object, not a list" });
  });

  it("answers at most 100 rows and bounded texts", () => {
    const many = { items: Array.from({ length: 1000 }, (_, i) => ({ n: i, text: "y".repeat(1000) })) };
    const data = extract(many, {
      fields: [field("all", "items")],
      list: { query: "items", columns: [{ id: "t", label: "T", query: "text", format: "text" }] },
    });
    expect(data.rows).toHaveLength(100);
    expect(data.rowsTotal).toBe(1000);
    expect((data.rows![0]!.t as string).length).toBe(200);
    expect((data.fields[0]!.value as string).length).toBe(200);
    expect(answerValue("z".repeat(2000))).toHaveLength(500);
    expect(answerValue(Number.NaN)).toBeNull();
  });

  it("keeps answers under the largest refresh step not longer than the widget's refresh", () => {
    expect(refreshPolicy(10).fresh).toBe(10_000);
    expect(refreshPolicy(59).fresh).toBe(45_000);
    expect(refreshPolicy(60).fresh).toBe(60_000);
    expect(refreshPolicy(86_400).fresh).toBe(86_400_000);
    expect(refreshPolicy(60)).toBe(refreshPolicy(89));
  });
});
