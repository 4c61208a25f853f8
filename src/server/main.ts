import path from "node:path";
import { ConfigError, loadConfig } from "./config.js";
import { openDatabase } from "./db/client.js";

/** Process entry: config from the environment, one app, graceful shutdown on SIGTERM/SIGINT. */
async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  if (process.argv[2] === "export-provisioning") return exportFiles(config, process.argv[3]);

  // The database opens (the embedded engine in its own thread) while the app's modules load.
  const openingDatabase = openDatabase(config);
  openingDatabase.catch(() => {}); // reported by buildApp, which awaits it
  const { buildApp } = await import("./app.js");
  const built = await buildApp(config, { openingDatabase });
  const { app } = built;
  await app.listen({ port: config.port, host: config.host });
  const mode = config.databaseUrl
    ? `PostgreSQL${config.redisUrl ? " + Redis" : ""}`
    : `embedded (${config.pgliteDir})`;
  const created = (await openingDatabase).created;
  if (created)
    app.log.info({ from: created.from, ms: Math.round(created.ms) }, "created the embedded database");
  app.log.info({ mode, url: config.baseUrl }, "Tessera is ready");
  const warming = performance.now();
  void built
    .warmUp()
    .then((compiled) =>
      app.log.debug(
        { compiled, ms: Math.round(performance.now() - warming) },
        "compiled the routes' schemas",
      ),
    );

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // SIGTERM comes from an orchestrator or a rolling deploy: drain first. SIGINT is a person at a
    // terminal (Ctrl-C): no one to drain away from, so close at once (in-flight requests still finish).
    const graceMs = signal === "SIGTERM" ? config.shutdown.graceMs : 0;
    const { timeoutMs } = config.shutdown;
    app.log.info({ signal, graceMs, timeoutMs }, "shutting down");
    // The last resort if closing itself hangs (a pool that never ends, say).
    const backstop = setTimeout(
      () => {
        app.log.error("shutdown did not complete; exiting");
        process.exit(1);
      },
      graceMs + timeoutMs + 5000,
    );
    backstop.unref();
    try {
      const { forced } = await built.shutdown({ graceMs, timeoutMs });
      app.log.info({ forced }, "stopped");
      process.exit(forced ? 1 : 0);
    } catch (error) {
      app.log.error({ err: error }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

/**
 * `npm run export-provisioning [dir]`: the instance's dashboards and integrations as provisioning
 * files, from the database the environment names (stop the server first in embedded mode: its
 * database has one user at a time).
 */
async function exportFiles(config: ReturnType<typeof loadConfig>, dir = "provisioning") {
  const database = await openDatabase(config);
  try {
    await database.migrate();
    const { exportProvisioning } = await import("./provisioning/export.js");
    const out = path.resolve(dir);
    const summary = await exportProvisioning(database.db, out);
    process.stdout.write(
      `Wrote ${summary.dashboards} dashboard(s) and ${summary.integrations} integration(s) to ${out}:\n${summary.files.map((f) => `  ${f}`).join("\n")}\n`,
    );
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  process.stderr.write(
    `Tessera failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
