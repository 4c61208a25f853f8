import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TEST_ORIGIN } from "./config.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

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
 * The real server as a separate process, started as `npm start` starts it today: Node with tsx
 * loading src/server/main.ts (scripts/start.mjs only adds the web build in front). It listens on
 * a free port and the promise resolves once it logged that it listens.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "src/server/main.ts")], {
    cwd: root,
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      BASE_URL: TEST_ORIGIN,
      LOG_LEVEL: "info",
      SIGNUP_MODE: "open",
      WEB_DIST: path.join(root, "no-web-build-in-this-test"),
      AUTH_SECRET: "test-secret-test-secret-test-secret-0123456789",
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64"),
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const exited = once(child, "exit").then(([code]) => code as number | null);
  let buffered = "";
  const listening = new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        lines.push(line);
        const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
        if (match) resolve(Number(match[1]));
        newline = buffered.indexOf("\n");
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (chunk: Buffer) => lines.push(chunk.toString()));
    void exited.then((code) =>
      reject(new Error(`the server exited (${code}) before listening:\n${lines.join("\n")}`)),
    );
  });
  const port = await listening;
  return { child, port, url: `http://127.0.0.1:${port}`, lines, exited };
}
