// Running the compiled server as a self-hoster would, and reading what the OS says about it.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { startCommand } from "../../scripts/start-command.mjs";
import { childrenOf } from "./memory.js";
import { freePort, ROOT } from "./processes.js";

/** How `npm start` runs the server (environment and Node flags): the benchmarks run it the same way. */
export type StartCommand = ReturnType<typeof startCommand>;
export { startCommand };

export interface Server {
  child: ChildProcess;
  base: string;
  /** Milliseconds from spawn to the first 200 of /healthz. */
  readyMs: number;
  /** The highest VmHWM seen in the server's child processes while it started (the init process). */
  childPeakMiB: number;
}

/**
 * What every benchmark server is given on top of the defaults: where to listen, and room for the
 * benchmarks' users (open sign-up, no rate limit, per-user limits lifted: the lean benchmark gives
 * one user 1,000 dashboards, and the limits are not what is measured).
 */
export function benchEnv(port: number): Record<string, string> {
  return {
    PORT: String(port),
    HOST: "127.0.0.1",
    BASE_URL: `http://127.0.0.1:${port}`,
    RATE_LIMIT_ENABLED: "false",
    SIGNUP_MODE: "open",
    LIMIT_DASHBOARDS_PER_USER: "1000000",
    LIMIT_WIDGETS_PER_DASHBOARD: "100000",
    LIMIT_CONFIG_MIB_PER_USER: "100000",
  };
}

/** Spawns `<command env> node <command flags> <entry>` and polls /healthz every 10 ms until it answers 200. */
export async function startServer(
  env: Record<string, string>,
  command: StartCommand = startCommand(),
  entry = "dist/server/main.js",
): Promise<Server> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(process.execPath, [...command.flags, path.join(ROOT, entry)], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      ...benchEnv(port),
      ...command.env,
      ...env,
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  let childPeakMiB = 0;
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    for (const pid of childrenOf(child.pid!)) childPeakMiB = Math.max(childPeakMiB, status(pid, "VmHWM"));
    try {
      if ((await fetch(`${base}/healthz`)).ok)
        return { child, base, readyMs: performance.now() - started, childPeakMiB };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill("SIGKILL");
  throw new Error("server did not become ready in 60 s");
}

export async function stopServer(server: { child: ChildProcess }) {
  const { child } = server;
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await exited;
}

/** A field of /proc/<pid>/status in MiB (VmRSS, VmHWM); 0 when the process is gone. */
export function status(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const text = readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

export const rssMiB = (pid: number) => status(pid, "VmRSS");

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / 100;
}
