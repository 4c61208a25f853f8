import type { UseQueryResult } from "@tanstack/react-query";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ErrorCode } from "../../../contract/errors";
import { ApiError } from "../../lib/api";
import { DataFrame } from "./DataFrame";
import { QueryView } from "./QueryView";
import type { WidgetData } from "./useWidgetData";

const failure = (code: ErrorCode, status = 409) =>
  new ApiError(status, { type: "about:blank", title: "", status, detail: "", code }, "");

/** A query result as the ladder reads it; the rest of react-query's fields do not matter here. */
const result = <T,>(state: Partial<UseQueryResult<T, unknown>>) =>
  ({ isPending: false, isError: false, refetch: () => {}, ...state }) as UseQueryResult<T, unknown>;

function view(query: UseQueryResult<string[], unknown>, connect = false) {
  return renderToStaticMarkup(
    <QueryView
      query={query}
      skeleton={<p>loading</p>}
      errorTitle="The list didn't load"
      connect={connect ? { provider: "suite", purpose: "to see your mail here" } : undefined}
    >
      {(items) => <ul>{items.join(",")}</ul>}
    </QueryView>,
  );
}

describe("QueryView", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows the skeleton, then the data", () => {
    expect(view(result({ isPending: true }))).toBe("<p>loading</p>");
    expect(view(result({ data: ["a", "b"] }))).toBe("<ul>a,b</ul>");
  });

  it("shows a failure with its title and a retry", () => {
    const html = view(result({ isError: true, error: failure("upstream_failed", 502) }));
    expect(html).toContain('role="alert"');
    expect(html).toContain("The list didn&#x27;t load");
    expect(html).toContain("Try again");
  });

  it("asks to connect the account only for an account's own list", () => {
    vi.stubGlobal("window", { location: { pathname: "/" } });
    const missing = result<string[]>({ isError: true, error: failure("account_not_connected") });
    expect(view(missing, true)).toContain('data-connect="suite"');
    expect(view(missing)).toContain('role="alert"');
  });
});

describe("DataFrame's empty rung", () => {
  const query = (data: { items: string[] }): WidgetData<{ items: string[] }> => ({
    data,
    dataUpdatedAt: 0,
    error: null,
    errorUpdatedAt: 0,
    isError: false,
    isFetching: false,
    refetch: () => {},
  });
  const frame = (data: { items: string[] }) =>
    renderToStaticMarkup(
      <DataFrame
        query={query(data)}
        label="the items"
        upstream="feed"
        readOnly
        select={(answer) => answer.items}
        empty={{ icon: "inbox", text: "Nothing here" }}
      >
        {(items) => <ul>{items.join(",")}</ul>}
      </DataFrame>,
    );

  it("says so in the frame when the selected list is empty", () => {
    const html = frame({ items: [] });
    expect(html).toMatch(/^<div class="data-frame"><div class="data-body"><div class="widget-empty"><svg/);
    expect(html).toContain("<p>Nothing here</p>");
    expect(html).not.toContain("<ul>");
  });

  it("draws the selected data otherwise", () => {
    expect(frame({ items: ["a"] })).toContain('<div class="data-body"><ul>a</ul></div>');
  });
});
