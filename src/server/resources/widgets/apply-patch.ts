import { applyPatch, type Operation } from "rfc6902";
import { PATCH_ROOT, type PatchOperation } from "../../../contract/widget-patch.js";
import { badRequest } from "../../http/errors.js";

/**
 * RFC 6902 operations applied one at a time to `{config}`, a copy of the stored config. rfc6902
 * does the applying; each location is first resolved here by the RFC's own rules, because the
 * library reads inherited members (`toString`), takes any array key (`length`, `01`), and
 * silently skips `__proto__`, `constructor` and `prototype`, so a bad pointer could write
 * somewhere other than where it names, or somewhere JSON never shows.
 */

export type PatchOutcome =
  | { ok: true; config: unknown }
  /** A `test` op found something else than it expected: nothing may be written. */
  | { ok: false; failedTest: number };

const INDEX = /^(0|[1-9][0-9]*)$/;
const UNSAFE = new Set(["__proto__", "constructor", "prototype"]);
const NEEDS_VALUE = new Set(["add", "replace", "test"]);
const NEEDS_FROM = new Set(["move", "copy"]);

const opError = (i: number, message: string) =>
  badRequest(`ops[${i}] cannot be applied: ${message}`, [{ path: `/ops/${i}`, message }]);

/** Checks every op's addressing before anything is applied: a bad one names itself, first. */
export function assertPatchable(ops: readonly PatchOperation[]) {
  const errors: { path: string; message: string }[] = [];
  ops.forEach((op, i) => {
    for (const member of ["path", "from"] as const) {
      const pointer = op[member];
      if (pointer === undefined) continue;
      if (pointer !== PATCH_ROOT && !pointer.startsWith(`${PATCH_ROOT}/`))
        errors.push({
          path: `/ops/${i}/${member}`,
          message: `must be ${PATCH_ROOT} or start with ${PATCH_ROOT}/`,
        });
      else if (tokensOf(pointer).some((token) => UNSAFE.has(token)))
        errors.push({
          path: `/ops/${i}/${member}`,
          message: "must not name __proto__, constructor or prototype",
        });
    }
    if (NEEDS_VALUE.has(op.op) && !Object.hasOwn(op, "value"))
      errors.push({ path: `/ops/${i}`, message: `${op.op} needs a value` });
    if (NEEDS_FROM.has(op.op) && op.from === undefined)
      errors.push({ path: `/ops/${i}`, message: `${op.op} needs from` });
  });
  if (errors.length > 0)
    throw badRequest(
      `The patch is invalid: ${errors.map((e) => `${e.path} ${e.message}`).join("; ")}`,
      errors,
    );
}

/** The patched config, or which `test` failed. Throws 400 for an op that cannot apply. */
export function applyOps(storedConfig: unknown, ops: readonly PatchOperation[]): PatchOutcome {
  assertPatchable(ops);
  const doc = { config: structuredClone(storedConfig) };
  for (let i = 0; i < ops.length; i++) {
    const op = ops[i]!;
    const located = locate(doc, op);
    if (located !== true) {
      if (op.op === "test" && located.absent) return { ok: false, failedTest: i };
      throw opError(i, located.message);
    }
    let result: ReturnType<typeof applyPatch>[number] | undefined;
    try {
      [result] = applyPatch(doc, [op as unknown as Operation]);
    } catch (error) {
      throw opError(i, (error as Error).message);
    }
    if (result?.name === "TestError") return { ok: false, failedTest: i };
    if (result) throw opError(i, result.message);
  }
  return { ok: true, config: doc.config };
}

type Located = true | { absent: boolean; message: string };

/** Whether each location the op reads or writes is there, by RFC 6901 and 6902's rules. */
function locate(doc: unknown, op: PatchOperation): Located {
  if (op.from !== undefined && NEEDS_FROM.has(op.op)) {
    const from = resolve(doc, op.from, "existing");
    if (from !== true) return from;
    if (op.op === "move" && op.path.startsWith(`${op.from}/`))
      return { absent: false, message: `cannot move ${op.from} into itself` };
  }
  return resolve(doc, op.path, op.op === "add" || NEEDS_FROM.has(op.op) ? "target" : "existing");
}

function resolve(doc: unknown, pointer: string, mode: "existing" | "target"): Located {
  const escaped = pointer.split("/").slice(1);
  const tokens = tokensOf(pointer);
  let value = doc;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    const last = t === tokens.length - 1;
    const at = () => `/${escaped.slice(0, t + 1).join("/")}`;
    if (Array.isArray(value)) {
      if (last && mode === "target" && token === "-") return true;
      if (!INDEX.test(token)) return { absent: false, message: `${at()} is not an index of the list` };
      const index = Number(token);
      const size = value.length;
      if (last && mode === "target" ? index > size : index >= size)
        return { absent: true, message: `${at()} is past the end of the list (${size} items)` };
      value = value[index];
    } else if (typeof value === "object" && value !== null) {
      if (last && mode === "target") return true;
      if (!Object.hasOwn(value, token)) return { absent: true, message: `${at()} does not exist` };
      value = (value as Record<string, unknown>)[token];
    } else {
      return { absent: true, message: `${at()} is inside a value that is neither an object nor a list` };
    }
  }
  return true;
}

/** RFC 6901 tokens of a pointer, unescaped (~1 before ~0, as the RFC orders it). */
function tokensOf(pointer: string): string[] {
  return pointer
    .split("/")
    .slice(1)
    .map((token) => token.replaceAll("~1", "/").replaceAll("~0", "~"));
}
