import { type Static, Type } from "@sinclair/typebox";
import { Uuid } from "./resources.js";

/**
 * `PATCH /api/widgets` (DESIGN section 14): RFC 6902 JSON Patch operations on a widget's
 * `config`, applied to what is stored at the moment of the write, so two editors adding to the
 * same list both land instead of the later one overwriting the earlier.
 */

export const PATCH_OPS_MAX = 100;
export const POINTER_MAX_LENGTH = 1000;
/** Paths address the widget record; only its config may be patched. */
export const PATCH_ROOT = "/config";

export const PATCH_OPS = ["add", "remove", "replace", "move", "copy", "test"] as const;
export type PatchOp = (typeof PATCH_OPS)[number];

// Same bound as the revision column's (a 4-byte integer): a larger one could never match.
const REVISION_MAX = 2_147_483_647;

// RFC 6901: "/"-separated tokens, "~" only as the escapes ~0 and ~1.
const JsonPointer = (description: string) =>
  Type.String({ maxLength: POINTER_MAX_LENGTH, pattern: "^(/([^~/]|~[01])*)*$", description });

export const PatchOperation = Type.Object(
  {
    op: Type.Union(
      PATCH_OPS.map((op) => Type.Literal(op)),
      { description: "RFC 6902 operation" },
    ),
    path: JsonPointer(
      "JSON Pointer into the widget record: `/config` or below it, e.g. `/config/todos/-` to append",
    ),
    value: Type.Optional(Type.Unknown({ description: "Required by add, replace and test" })),
    from: Type.Optional(JsonPointer("Required by move and copy; `/config` or below it")),
  },
  { additionalProperties: false },
);
export type PatchOperation = Static<typeof PatchOperation>;

export const PatchWidgetBody = Type.Object(
  {
    id: Uuid,
    revision: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: REVISION_MAX,
        description:
          "The revision the change was made on: when the stored one differs, nothing is written and the answer is 409 `conflict` with the stored record in `current`. Absent, the operations apply to whatever is stored (a failed `test` still refuses them)",
      }),
    ),
    ops: Type.Array(PatchOperation, { minItems: 1, maxItems: PATCH_OPS_MAX }),
  },
  { additionalProperties: false },
);
export type PatchWidgetInput = Static<typeof PatchWidgetBody>;
