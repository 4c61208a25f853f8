// What a process tree costs in memory, from /proc. `npm start` leaves three processes (npm, sh,
// node): their RSS counts the node binary's and the libraries' shared pages once per process, so
// the sum of RSS overstates the tree; PSS splits each shared page between the processes mapping
// it, and the sum of PSS is what the tree takes from the machine.
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessMemory {
  pid: number;
  /** /proc/<pid>/comm: "npm start", "sh", "node". */
  name: string;
  rssMiB: number;
  pssMiB: number;
}

export interface TreeMemory {
  processes: ProcessMemory[];
  rssMiB: number;
  pssMiB: number;
}

/** The direct children of a process, from every one of its threads (a worker thread may spawn too). */
export function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((task) => {
    try {
      return readFileSync(`/proc/${pid}/task/${task}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  });
}

/** The process and all its descendants, parents before children. */
export function processTree(root: number): number[] {
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...childrenOf(tree[i]!));
  return tree;
}

function read(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
}

export const processName = (pid: number) => read(`/proc/${pid}/comm`)?.trim() ?? "";
/** The process's arguments, argv[0] first: ["sh", "-c", "<the whole script>"], ["node", "--flag", "scripts/start.mjs"]. */
export const commandArgs = (pid: number) => read(`/proc/${pid}/cmdline`)?.split("\0").filter(Boolean) ?? [];

/** Rss and Pss of one process in MiB, from smaps_rollup; null when it is gone. */
export function smapsRollup(pid: number): { rssMiB: number; pssMiB: number } | null {
  const text = read(`/proc/${pid}/smaps_rollup`);
  if (text === null) return null;
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
  return { rssMiB: kb("Rss") / 1024, pssMiB: kb("Pss") / 1024 };
}

/** Each live process of the tree under `root` with its Rss and Pss, and their sums. */
export function treeMemory(root: number): TreeMemory {
  const processes: ProcessMemory[] = [];
  for (const pid of processTree(root)) {
    const memory = smapsRollup(pid);
    if (memory) processes.push({ pid, name: processName(pid), ...memory });
  }
  return {
    processes,
    rssMiB: processes.reduce((sum, p) => sum + p.rssMiB, 0),
    pssMiB: processes.reduce((sum, p) => sum + p.pssMiB, 0),
  };
}

/** True once the process has exited (gone, or a zombie its new parent has not reaped yet). */
export function exited(pid: number): boolean {
  const stat = read(`/proc/${pid}/stat`);
  if (stat === null) return true;
  return stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z");
}
