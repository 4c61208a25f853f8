import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/server/db/client.js";
import { dashboards, user } from "../../src/server/db/schema.js";
import { isForeignKeyViolation } from "../../src/server/http/validation.js";

const root = mkdtempSync(path.join(tmpdir(), "tessera-engine-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const open = (dir: string, thread: "worker" | "main" = "worker") =>
  openDatabase({
    databaseUrl: null,
    pgliteDir: dir,
    embeddedEngine: { thread, tuned: true, readCache: true },
  });

async function addUser(database: Database, id: string) {
  await database.db.insert(user).values({ id, name: id, email: `${id}@example.test` });
}

describe.each(["worker", "main"] as const)("the embedded engine on its %s thread", (thread) => {
  let database: Database;
  const dir = path.join(root, `data-${thread}`);

  beforeAll(async () => {
    database = await open(dir, thread);
    await database.migrate();
  });
  afterAll(() => database.close());

  it("initialises a new directory in a child process and leaves no staging directory behind", () => {
    expect(existsSync(path.join(dir, "PG_VERSION"))).toBe(true);
    expect(readdirSync(root).filter((name) => name.includes("initialising"))).toEqual([]);
  });

  it("runs with the household settings", async () => {
    const rows = await database.db.execute(sql`SELECT current_setting('shared_buffers') AS value`);
    expect((rows as unknown as { rows: { value: string }[] }).rows[0]!.value).toBe("16MB");
  });

  it("holds every other statement until a transaction ends, like PGlite in-process", async () => {
    await addUser(database, `tx-${thread}`);
    const order: string[] = [];
    let inside!: Parameters<Parameters<Database["db"]["transaction"]>[0]>[0];
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => {
      opened = resolve;
    });
    let release!: () => void;
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    const transaction = database.db.transaction(async (tx) => {
      await tx.insert(dashboards).values({ id: crypto.randomUUID(), userId: `tx-${thread}`, name: "inside" });
      inside = tx;
      opened();
      await holding;
      order.push("commit");
    });
    await isOpen;
    const outside = database.db
      .select({ n: count() })
      .from(dashboards)
      .where(eq(dashboards.userId, `tx-${thread}`))
      .then((rows) => {
        order.push("outside");
        return rows[0]!.n;
      });
    // A statement of the transaction sent after the outside one comes back first: the engine
    // took both in order and holds the outside one until the transaction ends.
    await inside.select({ n: count() }).from(dashboards);
    expect(order).toEqual([]);
    release();
    await transaction;
    expect(await outside).toBe(1);
    expect(order).toEqual(["commit", "outside"]);
  });

  it("rolls a failed transaction back, nested savepoints included", async () => {
    await addUser(database, `rb-${thread}`);
    await expect(
      database.db.transaction(async (tx) => {
        await tx.insert(dashboards).values({ id: crypto.randomUUID(), userId: `rb-${thread}`, name: "gone" });
        await tx.transaction(async (inner) => {
          await inner
            .insert(dashboards)
            .values({ id: crypto.randomUUID(), userId: `rb-${thread}`, name: "gone" });
        });
        throw new Error("abort");
      }),
    ).rejects.toThrow("abort");
    const rows = await database.db
      .select()
      .from(dashboards)
      .where(eq(dashboards.userId, `rb-${thread}`));
    expect(rows).toEqual([]);
  });

  it("reports database errors with their SQLSTATE, as the routes expect", async () => {
    const error = await database.db
      .insert(dashboards)
      .values({ id: crypto.randomUUID(), userId: "nobody", name: "orphan" })
      .catch((e: unknown) => e);
    expect(isForeignKeyViolation(error)).toBe(true);
  });

  it("never answers a cached read after a write, in or out of a transaction", async () => {
    await addUser(database, `cache-${thread}`);
    const names = async () =>
      (
        await database.ownedRead<{ names: string | null }>(
          "engine_names",
          "SELECT string_agg(name, ',' ORDER BY name) AS names FROM dashboards WHERE user_id = $1",
          [`cache-${thread}`],
        )
      )[0]!.names;
    expect(await names()).toBeNull();
    expect(await names()).toBeNull();
    await database.db
      .insert(dashboards)
      .values({ id: crypto.randomUUID(), userId: `cache-${thread}`, name: "a" });
    expect(await names()).toBe("a");
    await database.db.transaction(async (tx) => {
      await tx.insert(dashboards).values({ id: crypto.randomUUID(), userId: `cache-${thread}`, name: "b" });
    });
    expect(await names()).toBe("a,b");
    await database.db.execute(
      sql`UPDATE dashboards SET name = 'c' WHERE user_id = ${`cache-${thread}`} AND name = 'a'`,
    );
    expect(await names()).toBe("b,c");
    // A read already on its way when a write happens is answered but not kept.
    const inFlight = names();
    await database.db.delete(dashboards).where(eq(dashboards.userId, `cache-${thread}`));
    expect(await inFlight).toBe("b,c");
    expect(await names()).toBeNull();
  });

  it("answers named reads with their parameters", async () => {
    const rows = await database.ownedRead<{ v: string }>("engine_echo", "SELECT $1::text AS v", ["hello"]);
    expect(rows).toEqual([{ v: "hello" }]);
  });
});

describe("the embedded data directory", () => {
  it("keeps its data across a close and reopen", async () => {
    const dir = path.join(root, "reopen");
    const first = await open(dir);
    await first.migrate();
    await addUser(first, "kept");
    await first.close();
    const second = await open(dir);
    await second.migrate();
    const rows = await second.db.select().from(user).where(eq(user.id, "kept"));
    await second.close();
    expect(rows).toHaveLength(1);
  });

  it("ends its thread when the engine cannot open a damaged database, so the process can exit", async () => {
    const dir = path.join(root, "damaged");
    const made = await open(dir);
    await made.migrate();
    await made.close();
    writeFileSync(path.join(dir, "global", "pg_control"), Buffer.alloc(100, 0x5a));
    // In a process of its own: what is measured is whether that process ends by itself once the
    // failure has been reported (a thread left listening kept it alive).
    const script = path.join(root, "open-damaged.mts");
    const client = pathToFileURL(path.resolve("src/server/db/client.ts")).href;
    writeFileSync(
      script,
      `import { openDatabase } from ${JSON.stringify(client)};
const database = await openDatabase({ databaseUrl: null, pgliteDir: process.argv[2], embeddedEngine: { thread: "worker", tuned: true, readCache: true } });
await database.migrate().then(() => console.log("opened"), () => console.log("refused"));`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script, dir], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    const deadline = setTimeout(() => child.kill("SIGKILL"), 30_000);
    const [code, signal] = await once(child, "exit");
    clearTimeout(deadline);
    expect(output.trim()).toBe("refused");
    expect({ code, signal }).toEqual({ code: 0, signal: null });
  }, 60_000);

  it("refuses a directory that holds something other than a database", async () => {
    const dir = path.join(root, "not-a-db");
    mkdirSync(dir);
    writeFileSync(path.join(dir, "notes.txt"), "mine");
    await expect(open(dir)).rejects.toThrow(/holds no database/);
  });
});
