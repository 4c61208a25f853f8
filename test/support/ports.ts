import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * The kernel hands out ports for listen(0) and for every outgoing connection from its ephemeral
 * range, so a port found free there can be taken by another test between the check and the
 * server's own listen (EADDRINUSE, seen on CI). Below that range only callers of this function
 * pick ports, and each test worker picks from a slice of its own.
 */
const LOWEST = 10_000;
const SLICES = 8;

function ephemeralRangeStart(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (low > LOWEST + SLICES * 100) return low;
  } catch {
    // not Linux: the IANA range starts at 49152
  }
  return 49_152;
}

const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port nothing listens on right now, for a server the test starts once it knows its address. */
export async function freePort(): Promise<number> {
  const slice = Math.floor((ephemeralRangeStart() - LOWEST) / SLICES);
  const worker = Number(process.env.VITEST_POOL_ID ?? 1);
  const start = LOWEST + ((Math.max(worker, 1) - 1) % SLICES) * slice;
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = start + Math.floor(Math.random() * slice);
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port in ${start}-${start + slice - 1}`);
}
