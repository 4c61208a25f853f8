import { afterEach, describe, expect, it, vi } from "vitest";
import { publicWidgetPath } from "../../lib/data-api";
import { type DataSource, forecastRequest, pricesRequest, sessionSource } from "./source";

const published: DataSource = { kind: "public", dashboardId: "board-1" };
const place = { latitude: 52.52, longitude: 13.405 };

/** Records the URLs the query functions ask for, answering each with an empty JSON list. */
function recordFetches(): string[] {
  const urls: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      urls.push(url);
      return new Response("[]", { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
  return urls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("data source", () => {
  it("builds the public widget paths, escaping the ids", () => {
    expect(publicWidgetPath("b1", "w1", "prices")).toBe("/api/public/dashboards/b1/widgets/w1/prices");
    expect(publicWidgetPath("b/1", "w?1", "weather")).toBe(
      "/api/public/dashboards/b%2F1/widgets/w%3F1/weather",
    );
  });

  it("signed in, asks the private APIs with the widget's config", async () => {
    const urls = recordFetches();
    await pricesRequest(sessionSource, "w1", ["BTC-USD", "ETH-EUR"], "24h").queryFn();
    await forecastRequest(sessionSource, "w2", place, "fahrenheit").queryFn();
    expect(urls).toEqual([
      "/api/exchange/prices?pairs=BTC-USD%2CETH-EUR&timeframe=24h",
      "/api/weather?lat=52.5200&lon=13.4050&unit=fahrenheit",
    ]);
  });

  it("on a public dashboard, asks for the stored widget's data and sends no config", async () => {
    const urls = recordFetches();
    await pricesRequest(published, "w1", ["BTC-USD"], "1w").queryFn();
    await forecastRequest(published, "w2", place, "celsius").queryFn();
    expect(urls).toEqual([
      "/api/public/dashboards/board-1/widgets/w1/prices",
      "/api/public/dashboards/board-1/widgets/w2/weather",
    ]);
  });

  it("keeps public answers apart from private ones and from other widgets", () => {
    const mine = pricesRequest(sessionSource, "w1", ["BTC-USD"], "24h").queryKey;
    const theirs = pricesRequest(published, "w1", ["BTC-USD"], "24h").queryKey;
    const other = pricesRequest(published, "w9", ["BTC-USD"], "24h").queryKey;
    expect(mine).toEqual(["exchange", "prices", "BTC-USD", "24h"]);
    expect(theirs).not.toEqual(mine);
    expect(other).not.toEqual(theirs);
    // A changed config (the page re-read the dashboard) asks again.
    expect(pricesRequest(published, "w1", ["BTC-USD"], "1w").queryKey).not.toEqual(theirs);
    const weather = forecastRequest(published, "w2", place, "celsius").queryKey;
    expect(forecastRequest(sessionSource, "w2", place, "celsius").queryKey).not.toEqual(weather);
    expect(forecastRequest(published, "w2", place, "fahrenheit").queryKey).not.toEqual(weather);
  });
});
