import type { PatchOperation } from "../../contract/widget-patch";

/**
 * RFC 6902 JSON Patch on plain JSON, enough for the app's own operations: a tab draws its change
 * at once and, when someone else's version arrives before the server answered, draws it again on
 * top of theirs. The server applies the same operations for real (and is the judge of them).
 * Never mutates its input; a failed operation (a `test` that does not hold, a missing place)
 * leaves the whole patch unapplied.
 */

export type PatchResult = { ok: true; value: unknown } | { ok: false; failed: number };

const INDEX = /^(0|[1-9][0-9]*)$/;

function tokens(pointer: string): string[] | null {
  if (pointer === "") return [];
  if (!pointer.startsWith("/")) return null;
  return pointer
    .slice(1)
    .split("/")
    .map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

function clone<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

function get(doc: unknown, path: string[]): { found: boolean; value: unknown } {
  let at: unknown = doc;
  for (const token of path) {
    if (Array.isArray(at)) {
      if (!INDEX.test(token) || Number(token) >= at.length) return { found: false, value: undefined };
      at = at[Number(token)];
    } else if (typeof at === "object" && at !== null && Object.hasOwn(at, token)) {
      at = (at as Record<string, unknown>)[token];
    } else return { found: false, value: undefined };
  }
  return { found: true, value: at };
}

/** The container at `path`'s parent, inside `doc` (already a private copy), or null. */
function parentOf(doc: unknown, path: string[]): unknown {
  const found = get(doc, path.slice(0, -1));
  return found.found && typeof found.value === "object" && found.value !== null ? found.value : null;
}

function remove(doc: unknown, path: string[]): boolean {
  const parent = parentOf(doc, path);
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    if (!INDEX.test(last) || Number(last) >= parent.length) return false;
    parent.splice(Number(last), 1);
    return true;
  }
  if (!parent || !Object.hasOwn(parent, last)) return false;
  delete (parent as Record<string, unknown>)[last];
  return true;
}

function add(doc: unknown, path: string[], value: unknown): boolean {
  const parent = parentOf(doc, path);
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) {
    const index = last === "-" ? parent.length : INDEX.test(last) ? Number(last) : -1;
    if (index < 0 || index > parent.length) return false;
    parent.splice(index, 0, value);
    return true;
  }
  if (!parent) return false;
  (parent as Record<string, unknown>)[last] = value;
  return true;
}

export function applyJsonPatch(doc: unknown, ops: readonly PatchOperation[]): PatchResult {
  // The whole document is a private copy: operations change it in place.
  const root = { doc: clone(doc) };
  const at = (pointer: string | undefined) => {
    const path = pointer === undefined ? null : tokens(pointer);
    return path ? ["doc", ...path] : null;
  };
  for (const [i, op] of ops.entries()) {
    const path = at(op.path);
    if (!path) return { ok: false, failed: i };
    let ok: boolean;
    switch (op.op) {
      case "test": {
        const found = get(root, path);
        ok = found.found && sameValue(found.value, op.value);
        break;
      }
      case "add":
        ok = path.length > 1 && add(root, path, clone(op.value));
        break;
      case "remove":
        ok = path.length > 1 && remove(root, path);
        break;
      case "replace":
        ok =
          path.length > 1 && get(root, path).found && remove(root, path) && add(root, path, clone(op.value));
        break;
      case "move":
      case "copy": {
        const from = at(op.from);
        const found = from ? get(root, from) : { found: false, value: undefined };
        ok =
          from !== null &&
          found.found &&
          path.length > 1 &&
          (op.op === "copy" || remove(root, from)) &&
          add(root, path, clone(found.value));
        break;
      }
    }
    if (!ok) return { ok: false, failed: i };
  }
  return { ok: true, value: root.doc };
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}
