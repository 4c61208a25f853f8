import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_ORIGIN } from "../support/config.js";
import { startServerProcess } from "../support/server-process.js";

const ROUNDS = 3;
const ACKS_BEFORE_KILL = 60;
const IN_FLIGHT = 4;

/** The real server process (compiled, as npm start runs it) on its own DATA_DIR, once it is ready. */
async function startServer(dataDir: string): Promise<{ child: ChildProcess; base: string }> {
  const server = await startServerProcess({
    DATA_DIR: dataDir,
    RATE_LIMIT_ENABLED: "false",
    // The writer loop creates dashboards across the kills; the per-user limit is not what is tested.
    LIMIT_DASHBOARDS_PER_USER: "1000000",
  });
  return { child: server.child, base: server.url };
}

function killHard(child: ChildProcess) {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  return exited;
}

describe("embedded durability", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "tessera-durability-"));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it(`keeps every acknowledged write across kill -9, ${ROUNDS} times over`, async () => {
    let server = await startServer(dataDir);
    const email = `durable-${Date.now()}@example.test`;
    const signUp = await fetch(`${server.base}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: TEST_ORIGIN },
      body: JSON.stringify({ name: "Durable", email, password: "durable-password-1" }),
    });
    expect(signUp.status).toBe(200);
    const cookie = signUp.headers
      .getSetCookie()
      .find((c) => c.startsWith("session="))!
      .split(";")[0]!;
    const acknowledged = new Set<string>();

    for (let round = 1; round <= ROUNDS; round++) {
      const { base, child } = server;
      let acks = 0;
      let killing: Promise<unknown> | null = null;
      // A few writers in a loop; the server is killed mid-stream, so some requests never get an answer.
      const writer = async (n: number) => {
        for (let i = 0; !killing; i++) {
          try {
            const res = await fetch(`${base}/api/dashboards`, {
              method: "POST",
              headers: { "content-type": "application/json", origin: TEST_ORIGIN, cookie },
              body: JSON.stringify({ name: `r${round}-w${n}-${i}` }),
            });
            if (res.ok) acknowledged.add(((await res.json()) as { id: string }).id);
            if (res.ok && ++acks >= ACKS_BEFORE_KILL && !killing) killing = killHard(child);
          } catch {
            return; // the connection died with the server
          }
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, (_, n) => writer(n)));
      await killing;

      server = await startServer(dataDir);
      const res = await fetch(`${server.base}/api/dashboards`, { headers: { cookie } });
      expect(res.status).toBe(200);
      const stored = new Set(((await res.json()) as { id: string }[]).map((d) => d.id));
      const lost = [...acknowledged].filter((id) => !stored.has(id));
      expect(lost, `round ${round}: acknowledged writes missing after kill -9`).toEqual([]);
      expect(acknowledged.size).toBeGreaterThanOrEqual(round * ACKS_BEFORE_KILL);
    }
    await killHard(server.child);
  }, 240_000);
});
