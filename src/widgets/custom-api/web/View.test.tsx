import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { customApiWidget } from "../contract";
import { CustomApiValues } from "./View";

const config = customApiWidget.parse({
  integrationId: "0193a5b2-7c1d-7e8f-9a0b-1c2d3e4f5a6b",
  display: "table",
  fields: [{ id: "cpu", label: "CPU", query: "cpu", format: "percent" }],
  list: {
    query: "services",
    columns: [
      { id: "name", label: "Name", query: "name" },
      { id: "state", label: "State", query: "state", format: "status" },
    ],
  },
});

describe("the Custom API view", () => {
  it("shows big numbers with labels, and the list as a table with states in words", () => {
    const html = renderToStaticMarkup(
      <CustomApiValues
        config={config}
        data={{
          fields: [
            { id: "cpu", label: "CPU", value: 12.5, format: "percent", unit: null },
            { id: "mem", label: "Memory", value: 3_221_225_472, format: "bytes", unit: null },
            {
              id: "bad",
              label: "Broken",
              value: null,
              format: "text",
              unit: null,
              error: "abs() expected a number",
            },
          ],
          rows: [
            { name: "web", state: "running" },
            { name: "db", state: "exited" },
          ],
          rowsTotal: 5,
        }}
      />,
    );
    expect(html).toContain("<dt>CPU</dt><dd>12.5%</dd>");
    expect(html).toContain("<dt>Memory</dt><dd>3 GiB</dd>");
    expect(html).toContain('title="abs() expected a number"');
    expect(html).toMatch(/<th scope="col">Name<\/th><th scope="col">State<\/th>/);
    // The colour repeats the words; it never stands alone.
    expect(html).toMatch(
      /capi-status is-bad"><span class="capi-dot" aria-hidden="true"><\/span><span class="visually-hidden">[^<]+<\/span>exited/,
    );
    expect(html).toMatch(/capi-status is-good">.*running/);
    expect((html.match(/<tr>/g) ?? []).length).toBe(3);
  });

  it("lists rows when asked for a list", () => {
    const html = renderToStaticMarkup(
      <CustomApiValues
        config={{ ...config, display: "list" }}
        data={{ fields: [], rows: [{ name: "web", state: "running" }], rowsTotal: 1 }}
      />,
    );
    expect(html).toContain('<ul class="capi-list"><li><span class="capi-list-main">web</span>');
    expect(html).not.toContain("<table");
  });
});
