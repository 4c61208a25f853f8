import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { WIDGET_DEFINITIONS, widgetFolder } from "../../widgets/index.js";
import { widgetServers } from "./registry.js";

const WIDGETS = path.resolve(import.meta.dirname, "../../widgets");

describe("the widget registries", () => {
  it("list every folder under src/widgets, and every listed type has its folder and view", () => {
    const folders = readdirSync(WIDGETS, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    expect(WIDGET_DEFINITIONS.map((d) => widgetFolder(d.type)).sort()).toEqual(folders);
    for (const folder of folders) {
      expect(existsSync(path.join(WIDGETS, folder, "contract.ts")), folder).toBe(true);
      expect(existsSync(path.join(WIDGETS, folder, "web/index.tsx")), folder).toBe(true);
    }
  });

  it("load a server half exactly for the types whose contract says `server: true`", async () => {
    for (const definition of WIDGET_DEFINITIONS) {
      const hasHalf = existsSync(path.join(WIDGETS, widgetFolder(definition.type), "server/index.ts"));
      // A half without the flag would never load; the flag without a half would fail every start.
      expect(hasHalf, definition.type).toBe(definition.server);
    }
    const loaded = await widgetServers();
    expect(loaded.map((l) => l.definition.type)).toEqual(
      WIDGET_DEFINITIONS.filter((d) => d.server).map((d) => d.type),
    );
    // Types whose data is a keyless service answer GET /api/widgets/data through their half.
    for (const { definition, server } of loaded)
      expect(server.data !== undefined, definition.type).toBe(definition.data.kind === "service");
  });
});
