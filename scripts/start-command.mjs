// How `npm start` runs the server: the environment it sets and the Node flags it passes, read from
// package.json so the memory check, the benchmarks and the tests run the server exactly so.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `{ env, flags }` of package.json's start script (`NAME=value … node --flag … scripts/start.mjs`). */
export function startCommand() {
  const script = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;
  const tokens = script.split(/\s+/);
  const node = tokens.indexOf("node");
  const env = Object.fromEntries(
    tokens.slice(0, node).map((token) => {
      const at = token.indexOf("=");
      return [token.slice(0, at), token.slice(at + 1)];
    }),
  );
  return { env, flags: tokens.slice(node + 1).filter((token) => token.startsWith("--")) };
}
