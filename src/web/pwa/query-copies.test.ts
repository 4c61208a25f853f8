import { QueryClient } from "@tanstack/react-query";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { connectionStore } from "./connection";
import { followOfflineCopies } from "./query-copies";

/** The app's queries and the worker's copies (query-copies.ts), with a real QueryClient. */

let client: QueryClient;
let stop: () => void;
const LOADED_AT = Date.UTC(2026, 0, 5, 7, 30);

beforeEach(() => {
  connectionStore.dispatch({ type: "browser-online" });
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  stop = followOfflineCopies(client);
});
afterEach(() => {
  stop();
  client.clear();
});

const read = (value: number) => client.fetchQuery({ queryKey: ["forecast"], queryFn: async () => value });

describe("queries answered by offline copies", () => {
  it("date an answer that came while offline by when the copies were loaded", async () => {
    connectionStore.dispatch({ type: "browser-offline" });
    connectionStore.dispatch({ type: "last-loaded", at: LOADED_AT });
    await read(12);
    expect(client.getQueryState(["forecast"])).toMatchObject({ data: 12, dataUpdatedAt: LOADED_AT });
  });

  it("leave answers from the network as they are", async () => {
    const before = Date.now();
    await read(13);
    expect(client.getQueryState(["forecast"])!.dataUpdatedAt).toBeGreaterThanOrEqual(before);
  });

  it("are all read again when the network is back", async () => {
    connectionStore.dispatch({ type: "copy-served", storedAt: LOADED_AT });
    await read(12);
    expect(client.getQueryState(["forecast"])!.isInvalidated).toBe(false);
    connectionStore.dispatch({ type: "network-answered" });
    expect(client.getQueryState(["forecast"])!.isInvalidated).toBe(true);
  });

  it("read nothing again after an offline spell that showed no copy", async () => {
    await read(13);
    connectionStore.dispatch({ type: "browser-offline" });
    connectionStore.dispatch({ type: "browser-online" });
    expect(client.getQueryState(["forecast"])!.isInvalidated).toBe(false);
  });
});
