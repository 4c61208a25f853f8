import type { ChildProcess } from "node:child_process";
import { cpSync, readdirSync } from "node:fs";
import { compiled, startCompiledServer } from "./compiled.js";
import { TEST_ORIGIN } from "./config.js";

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Every log line so far (JSON, as pino writes them). */
  lines: string[];
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/**
 * The real server as a separate process, started as `npm start` starts it: the compiled build
 * (test/support/compiled.ts), with npm start's Node flags. On PostgreSQL when `env` names a
 * DATABASE_URL, else embedded in `env.DATA_DIR` (or a folder of its own), which starts as a copy of
 * the initialised data template when empty, so no test waits for initdb. Resolves once it is ready.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const { server, dataTemplate } = await compiled();
  const dataDir = env.DATABASE_URL ? undefined : env.DATA_DIR;
  if (dataDir && readdirSync(dataDir).length === 0) cpSync(dataTemplate, dataDir, { recursive: true });
  const started = await startCompiledServer({
    server,
    ...(env.DATABASE_URL ? {} : dataDir ? { dataDir } : { dataTemplate }),
    env: {
      BASE_URL: TEST_ORIGIN,
      AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      SHUTDOWN_GRACE_SECONDS: "5",
      ...env,
    },
  });
  return {
    child: started.child,
    port: started.port,
    url: started.baseUrl,
    lines: started.lines,
    exited: started.exited,
  };
}
