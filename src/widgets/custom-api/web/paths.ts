/**
 * JMESPath for a place in a JSON document, as the settings' tree builds it when a value is
 * clicked: `data.items[0].name`, with keys that are not plain identifiers quoted
 * (`"foo-bar"`, `"/"`) the way JMESPath quotes them (JSON string syntax).
 */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Plain identifiers in JMESPath, but words the community edition reads in `let` expressions. */
const KEYWORDS = new Set(["let", "in"]);

export type PathSegment = string | number;

export function keySegment(key: string): string {
  return IDENTIFIER.test(key) && !KEYWORDS.has(key) ? key : JSON.stringify(key);
}

/** The expression for `segments` from the root; the root itself is `@`. */
export function pathOf(segments: readonly PathSegment[]): string {
  let out = "";
  for (const segment of segments) {
    if (typeof segment === "number") out += `[${segment}]`;
    else out += out === "" ? keySegment(segment) : `.${keySegment(segment)}`;
  }
  return out === "" ? "@" : out;
}

/** A label from the last key of a path: "disk_usage" → "Disk usage", "cpuTotal" → "Cpu total". */
export function labelFor(segments: readonly PathSegment[]): string {
  const key = [...segments].reverse().find((s): s is string => typeof s === "string") ?? "value";
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/[_\-.\s/]+/g, " ")
    .trim()
    .toLowerCase();
  return (words.charAt(0).toUpperCase() + words.slice(1)).slice(0, 100) || key.slice(0, 100);
}

/**
 * The columns an array offers: the scalar keys of its first object item (and one level into
 * nested objects: `state.status`), as paths relative to one item.
 */
export function columnCandidates(items: readonly unknown[]): PathSegment[][] {
  const first = items.find((item) => item !== null && typeof item === "object" && !Array.isArray(item));
  if (!first) return items.length > 0 ? [[]] : [];
  const out: PathSegment[][] = [];
  for (const [key, value] of Object.entries(first as Record<string, unknown>)) {
    if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      for (const [inner, innerValue] of Object.entries(value as Record<string, unknown>))
        if (innerValue === null || typeof innerValue !== "object") out.push([key, inner]);
    } else if (!Array.isArray(value)) out.push([key]);
  }
  return out;
}
