import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  watch,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildServer, buildWeb, PARTS, ROOT } from "../../scripts/build.mjs";
import { startCommand } from "../../scripts/start-command.mjs";
import { freePort } from "./ports.js";

/** Where the suite keeps its builds: node_modules/.cache, so a developer's dist/ is left alone. */
const CACHE = path.join(ROOT, "node_modules/.cache/tessera/compiled");

/** The artifact the suite runs: the web app, the server and an initialised embedded data directory. */
export interface Compiled {
  web: string;
  server: string;
  dataTemplate: string;
}

type Part = keyof typeof PARTS;

/** A fingerprint of a part's inputs (path, size and time of every file): a change makes a new build. */
function fingerprint(part: Part): string {
  const hash = createHash("sha256");
  // Bumped when what this file puts in a build changes (metafile.json beside the server).
  hash.update("layout 2\n");
  const walk = (target: string) => {
    if (!existsSync(target)) return;
    const stat = statSync(target);
    if (!stat.isDirectory()) {
      hash.update(`${path.relative(ROOT, target)}\0${stat.size}\0${stat.mtimeMs}\n`);
      return;
    }
    for (const entry of readdirSync(target).sort()) walk(path.join(target, entry));
  };
  for (const input of PARTS[part].inputs) walk(path.join(ROOT, input));
  return hash.digest("hex").slice(0, 16);
}

/**
 * Makes `final` with `make` unless it exists. Builds go to a private folder renamed into place
 * when complete, so test runs side by side never see half a build (the rename of the slower of
 * two identical builds fails and is dropped). Answers whether it built.
 */
async function once_(final: string, make: (into: string) => Promise<void>): Promise<boolean> {
  if (existsSync(final)) return false;
  mkdirSync(CACHE, { recursive: true });
  const into = mkdtempSync(path.join(CACHE, `.making-${path.basename(final)}-`));
  try {
    await make(into);
    renameSync(into, final);
  } catch (error) {
    rmSync(into, { recursive: true, force: true });
    if (!existsSync(final)) throw error;
  }
  return true;
}

/** Drops builds other than the current ones (and unfinished ones over an hour old). */
function prune(keep: Set<string>) {
  const hour = Date.now() - 3600_000;
  for (const entry of readdirSync(CACHE)) {
    const full = path.join(CACHE, entry);
    if (keep.has(full)) continue;
    if (entry.startsWith(".making-") && statSync(full).mtimeMs > hour) continue;
    // Another run may still use an older build: only those over an hour old go.
    if (statSync(full).mtimeMs > hour) continue;
    rmSync(full, { recursive: true, force: true });
  }
}

/**
 * The compiled web app and server for the current sources, built as `npm run build` builds them
 * when their sources changed since, plus an embedded data directory the compiled server created
 * and migrated (copied for each server, so no test pays the database's first initialisation).
 */
export async function ensureCompiled(log: (line: string) => void = () => {}): Promise<Compiled> {
  const web = path.join(CACHE, `web-${fingerprint("web")}`);
  const server = path.join(CACHE, `server-${fingerprint("server")}`);
  const dataTemplate = path.join(CACHE, `data-${path.basename(server)}`);
  let started = Date.now();
  if (await once_(web, async (into) => buildWeb(into, { quiet: true })))
    log(`built the web app in ${Date.now() - started} ms`);
  started = Date.now();
  // esbuild's account of the build (what each file holds and imports) goes beside it for the tests.
  const withMetafile = async (into: string) =>
    writeFileSync(path.join(into, "metafile.json"), JSON.stringify(await buildServer(into)));
  if (await once_(server, withMetafile)) log(`built the server in ${Date.now() - started} ms`);
  started = Date.now();
  const made = await once_(dataTemplate, async (into) => {
    const first = await startCompiledServer({ server, dataDir: into, env: { WEB_DIST: "/nonexistent" } });
    await first.stop();
  });
  if (made) log(`initialised the embedded data template in ${Date.now() - started} ms`);
  prune(new Set([web, server, dataTemplate]));
  return { web, server, dataTemplate };
}

/**
 * Runs `work` holding the cache's lock, so test files (and test runs) that need the compiled
 * artifact at the same moment build it once: the others wait for the lock folder to go away.
 * A lock left by a process that died is taken over.
 */
async function locked<T>(work: () => Promise<T>): Promise<T> {
  mkdirSync(CACHE, { recursive: true });
  const lock = path.join(CACHE, ".lock");
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, "pid"), String(process.pid));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number(readFileSync(path.join(lock, "pid"), { encoding: "utf8", flag: "a+" }) || 0);
    if (holder && !alive(holder)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    await new Promise<void>((resolve) => {
      const watcher = watch(CACHE, () => {
        if (!existsSync(lock)) done();
      });
      // A watch may miss an event on some file systems; look again now and then.
      const timer = setInterval(() => {
        if (!existsSync(lock)) done();
      }, 1000);
      function done() {
        clearInterval(timer);
        watcher.close();
        resolve();
      }
    });
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

let compiling: Promise<Compiled> | null = null;

/** The compiled artifact for the current sources (see ensureCompiled), once per test worker. */
export function compiled(): Promise<Compiled> {
  compiling ??= locked(() => ensureCompiled((line) => console.log(`[compiled] ${line}`)));
  return compiling;
}

export interface CompiledServer {
  child: ChildProcess;
  port: number;
  baseUrl: string;
  /** Everything the process wrote, line by line (pino's JSON on stdout, anything on stderr). */
  lines: string[];
  /** Resolves with the exit code once the process ends, however it ends. */
  exited: Promise<number | null>;
  /** SIGTERM, then the exit code once it ended. */
  stop(): Promise<number | null>;
}

export interface StartOptions {
  /** The compiled server's folder (from `inject("compiled")`). */
  server: string;
  /** Environment on top of the defaults below (the way an operator configures it). */
  env?: Record<string, string>;
  /** An embedded data directory to use as is; otherwise a copy of `dataTemplate`, or a new one. */
  dataDir?: string;
  dataTemplate?: string;
  /** A port decided before start (an OAuth redirect URI names it); a free one otherwise. */
  port?: number;
}

/**
 * The compiled server started exactly as `npm start` starts it (the Node flags and environment of
 * package.json's start script, node running dist/server/main.js), configured only through its
 * environment. Resolves once it logged that it is ready.
 */
export async function startCompiledServer(options: StartOptions): Promise<CompiledServer> {
  const port = options.port ?? (await freePort());
  const baseUrl = `http://127.0.0.1:${port}`;
  let dataDir = options.dataDir;
  let ownsData = false;
  if (!dataDir) {
    dataDir = mkdtempSync(path.join(tmpdir(), "tessera-data-"));
    ownsData = true;
    if (options.dataTemplate) cpSync(options.dataTemplate, dataDir, { recursive: true });
  }
  const start = startCommand();
  const child = spawn(process.execPath, [...start.flags, path.join(options.server, "main.js")], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? tmpdir(),
      ...start.env,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      BASE_URL: baseUrl,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // The suite signs many people up from one address; the sign-up modes have their own tests.
      SIGNUP_MODE: "open",
      RATE_LIMIT_SIGNUPS_PER_HOUR: "100000",
      // Nothing to drain away from: a test's server stops at once.
      SHUTDOWN_GRACE_SECONDS: "0",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // A test worker that ends (a hook timed out while the server started) takes its server along.
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  const lines: string[] = [];
  const exited = once(child, "exit").then(([code]) => {
    process.off("exit", orphaned);
    return code as number | null;
  });
  const collect = (stream: NodeJS.ReadableStream, onLine?: (line: string) => void) => {
    let buffered = "";
    stream.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        lines.push(line);
        onLine?.(line);
      }
    });
  };
  const ready = new Promise<void>((resolve, reject) => {
    collect(child.stdout!, (line) => {
      if (line.includes('"msg":"Tessera is ready"')) resolve();
    });
    collect(child.stderr!);
    void exited.then((code) =>
      reject(new Error(`the compiled server exited (${code}) before it was ready:\n${lines.join("\n")}`)),
    );
  });
  await ready;
  let stopping: Promise<number | null> | null = null;
  return {
    child,
    port,
    baseUrl,
    lines,
    exited,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
        const code = await exited;
        if (ownsData) rmSync(dataDir!, { recursive: true, force: true });
        return code;
      })();
      return stopping;
    },
  };
}

/**
 * A data provider's endpoints when the OAuth part is the OIDC fake (its client `client`) and the
 * data comes from a provider fake: the shape providersEnv takes.
 */
export function oauthThrough(
  op: { issuer: string; clients: Record<string, { clientId: string; clientSecret: string }> },
  client: string,
  data: { userInfoUrl: string; apiUrl: string },
) {
  return {
    clientId: op.clients[client]!.clientId,
    clientSecret: op.clients[client]!.clientSecret,
    authorizationUrl: `${op.issuer}/auth`,
    tokenUrl: `${op.issuer}/token`,
    ...data,
  };
}

/** The environment that points the server's OAuth providers at fakes (DESIGN section 3's names). */
export function providersEnv(
  providers: Partial<
    Record<
      "GOOGLE" | "GITHUB" | "NOTION",
      {
        clientId: string;
        clientSecret: string;
        authorizationUrl: string;
        tokenUrl: string;
        userInfoUrl: string;
        apiUrl: string;
      }
    >
  >,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [prefix, p] of Object.entries(providers)) {
    env[`${prefix}_CLIENT_ID`] = p.clientId;
    env[`${prefix}_CLIENT_SECRET`] = p.clientSecret;
    env[`${prefix}_AUTHORIZATION_URL`] = p.authorizationUrl;
    env[`${prefix}_TOKEN_URL`] = p.tokenUrl;
    env[`${prefix}_USERINFO_URL`] = p.userInfoUrl;
    env[`${prefix}_API_URL`] = p.apiUrl;
  }
  return env;
}

/** The environment that points the server at a fake exchange, with its credentials. */
export function exchangeEnv(exchange: {
  url: string;
  clientId: string;
  clientSecret: string;
  passphrase: string;
}): Record<string, string> {
  return {
    EXCHANGE_URL: exchange.url,
    EXCHANGE_CLIENT_ID: exchange.clientId,
    EXCHANGE_CLIENT_SECRET: exchange.clientSecret,
    EXCHANGE_PASSPHRASE: exchange.passphrase,
  };
}
