// Running the server the way self-hosters do: `npm start` in the repository, at the default log
// level, its output read by a pipe as docker or journald read it. npm gets a process group of its
// own, so one signal reaches npm, the shell npm runs the script in and the server, as a
// terminal's Ctrl-C or `docker stop` would.
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { commandArgs, exited, processTree } from "./memory.js";
import { freePort, ROOT } from "./processes.js";
import { benchEnv } from "./server.js";

export interface NpmStart {
  /** npm itself, the leader of the process group. */
  child: ChildProcess;
  base: string;
  /** Milliseconds from spawn to the first 200 of /healthz. */
  readyMs: number;
  /** The server's node process (scripts/start.mjs, two levels below npm). */
  serverPid: number;
  /** The last few KB the tree wrote to stdout and stderr, for a failure's message. */
  output: () => string;
}

/** package.json's start script, as npm runs it. */
export const startScript = (): string =>
  JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;

const TAIL_BYTES = 8 * 1024;

/** Keeps the last TAIL_BYTES of a stream that is otherwise read and thrown away. */
function tail(stream: NodeJS.ReadableStream) {
  const kept: Buffer[] = [];
  let length = 0;
  stream.on("data", (chunk: Buffer) => {
    kept.push(chunk);
    length += chunk.length;
    while (length - kept[0]!.length >= TAIL_BYTES) length -= kept.shift()!.length;
  });
  stream.resume();
  return () => Buffer.concat(kept).toString("utf8").slice(-TAIL_BYTES);
}

function signalGroup(group: number, signal: NodeJS.Signals) {
  try {
    process.kill(-group, signal);
  } catch {
    // the whole group has exited
  }
}

/** Groups still running, ended if the benchmark is interrupted or fails before stopping them. */
const running = new Set<number>();
const endAll = () => {
  for (const group of running) signalGroup(group, "SIGTERM");
};
process.once("exit", endAll);
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => {
    endAll();
    process.exit(130);
  });

/**
 * `npm start` with the benchmarks' room (benchEnv) and `env` on top of this process's environment,
 * minus LOG_LEVEL and NODE_ENV, so the server runs at its defaults; polls /healthz every 10 ms.
 */
export async function npmStart(env: Record<string, string>): Promise<NpmStart> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const { LOG_LEVEL: _level, NODE_ENV: _mode, ...inherited } = process.env;
  const started = performance.now();
  const child = spawn("npm", ["start"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...inherited,
      // npm's weekly registry check: off, so a start never waits on the network.
      npm_config_update_notifier: "false",
      // The benchmark built dist/ before its first start. Another person's edit in src/ during a
      // run would otherwise make the next start compile (and time the build); scripts/start.mjs
      // still walks the sources to decide, which a self-hoster's start pays too.
      SKIP_BUILD: "1",
      ...benchEnv(port),
      ...env,
    },
  });
  const stdout = tail(child.stdout!);
  const stderr = tail(child.stderr!);
  const output = () => `--- stdout\n${stdout()}\n--- stderr\n${stderr()}`;
  running.add(child.pid!);
  const deadline = Date.now() + 60_000;
  while (!(await healthy(base))) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stopNpmStart({ child });
      throw new Error(`npm start exited with ${child.exitCode ?? child.signalCode}\n${output()}`);
    }
    if (Date.now() > deadline) {
      await stopNpmStart({ child }, "SIGKILL");
      throw new Error(`npm start did not become ready in 60 s\n${output()}`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  const readyMs = performance.now() - started;
  const serverPid = processTree(child.pid!).find((pid) => commandArgs(pid).includes("scripts/start.mjs"));
  if (serverPid === undefined) {
    await stopNpmStart({ child });
    throw new Error(`no scripts/start.mjs under npm start\n${output()}`);
  }
  return { child, base, readyMs, serverPid, output };
}

async function healthy(base: string) {
  try {
    return (await fetch(`${base}/healthz`)).ok;
  } catch {
    return false; // not listening yet
  }
}

/**
 * Signals the whole group and waits until every process of the tree has exited: npm and the shell
 * go at once, the server after its graceful shutdown (SHUTDOWN_GRACE_SECONDS, 5 s by default),
 * and only then is its DATA_DIR free for the next start.
 */
export async function stopNpmStart(server: Pick<NpmStart, "child">, signal: NodeJS.Signals = "SIGTERM") {
  const { child } = server;
  const group = child.pid!;
  const tree = processTree(group);
  const npmExited =
    child.exitCode !== null || child.signalCode !== null
      ? Promise.resolve()
      : new Promise((r) => child.once("exit", r));
  signalGroup(group, signal);
  const deadline = Date.now() + 30_000;
  let killed = signal === "SIGKILL";
  while (!tree.slice(1).every(exited)) {
    if (!killed && Date.now() > deadline) {
      killed = true;
      signalGroup(group, "SIGKILL");
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  await npmExited;
  running.delete(group);
}
