import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One Tessera process, started as production would start it (src/server/main.ts). */
export class Instance {
  private constructor(
    readonly name: string,
    readonly base: string,
    private readonly child: ChildProcess,
  ) {}

  static async start(name: string, env: Record<string, string>): Promise<Instance> {
    const port = await freePort();
    const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "src/server/main.ts")], {
      cwd: ROOT,
      env: { ...process.env, NODE_ENV: "production", HOST: "127.0.0.1", PORT: String(port), ...env },
      stdio: ["ignore", "inherit", "inherit"],
    });
    const instance = new Instance(name, `http://127.0.0.1:${port}`, child);
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`${instance.base}/readyz`)).ok) return instance;
      } catch {}
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    child.kill("SIGKILL");
    throw new Error(`${name} did not become ready within 60 s`);
  }

  /** Resident memory of the server process, in MiB. */
  rssMiB(): number {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? Number.NaN);
    return kb / 1024;
  }

  /** SIGTERM, as an orchestrator would; SIGKILL if it has not exited in 15 s. */
  async stop(): Promise<number | null> {
    if (this.child.exitCode !== null) return this.child.exitCode;
    const exited = new Promise<number | null>((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGTERM");
    const timer = setTimeout(() => this.child.kill("SIGKILL"), 15_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  }
}
