import { buildApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";

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

  const built = await buildApp(config);
  const { app } = built;
  await app.listen({ port: config.port, host: config.host });
  const mode = config.databaseUrl
    ? `PostgreSQL${config.redisUrl ? " + Redis" : ""}`
    : `embedded (${config.pgliteDir})`;
  app.log.info({ mode, url: config.baseUrl }, "Tessera is ready");

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    const force = setTimeout(() => {
      app.log.error("shutdown took longer than 10 s; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await built.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "error during shutdown");
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

main().catch((error) => {
  process.stderr.write(
    `Tessera failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
