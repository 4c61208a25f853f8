import { createWriteStream, existsSync } from "node:fs";
import { finished } from "node:stream/promises";
import { ConfigError, loadConfig } from "../config.js";
import { openDatabase } from "../db/client.js";
import { BackupError, restoreBackup, writeBackup } from "./backup.js";

const USAGE = `Usage:
  npm run backup -- --out FILE            a consistent copy of the whole instance
  npm run restore -- --in FILE [--force]  into the database DATABASE_URL (or DATA_DIR) names
The database is the one the app would use: DATABASE_URL for PostgreSQL, else the embedded one under
DATA_DIR (stop the app first: the embedded engine belongs to one process).`;

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** Progress on stderr at most every second, so a long run shows it is alive. */
function reporter(verb: string) {
  let last = 0;
  return (table: string, rows: number) => {
    if (Date.now() - last < 1000) return;
    last = Date.now();
    process.stderr.write(`${verb} ${rows} rows (now ${table})\n`);
  };
}

async function main() {
  const [command, ...args] = process.argv.slice(2);
  const option = (name: string) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : undefined;
  };
  if (command !== "backup" && command !== "restore") fail(USAGE);
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(`Configuration error: ${error.message}`);
    throw error;
  }
  const where = config.databaseUrl
    ? "PostgreSQL (DATABASE_URL)"
    : `the embedded database in ${config.dataDir}`;
  const database = await openDatabase({
    ...config,
    embeddedEngine: { thread: "worker", tuned: true, readCache: false },
  });
  const started = Date.now();
  try {
    if (command === "backup") {
      const file = option("--out") ?? fail(USAGE);
      const out = createWriteStream(file, { flags: "wx" });
      out.on("error", (error) => fail(`Cannot write ${file}: ${error.message}`));
      const { rows } = await writeBackup(database, out, reporter("backed up"));
      out.end();
      await finished(out);
      process.stderr.write(
        `Backed up ${rows} rows from ${where} to ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.\n` +
          "The file holds password hashes and OAuth tokens encrypted with TOKEN_ENCRYPTION_KEY: keep it safe, and " +
          `restore with the same key${config.databaseUrl ? "" : ` (the embedded mode's is in ${config.dataDir}/token-key unless set)`}.\n`,
      );
    } else {
      const file = option("--in") ?? fail(USAGE);
      if (!existsSync(file)) fail(`No such file: ${file}`);
      const { rows } = await restoreBackup(database, file, {
        force: args.includes("--force"),
        progress: reporter("restored"),
      });
      process.stderr.write(
        `Restored ${rows} rows into ${where} in ${((Date.now() - started) / 1000).toFixed(1)} s.\n`,
      );
    }
  } catch (error) {
    if (error instanceof BackupError) fail(error.message);
    throw error;
  } finally {
    await database.close();
  }
}

await main();
