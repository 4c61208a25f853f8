import type { Static } from "@sinclair/typebox";
import { Type } from "../../contract/typebox.js";
import { defineWidgetType } from "../../contract/widget-kit/define.js";
import { DateTime, Id, ItemList, Text } from "../../contract/widget-kit/fields.js";

export const NOTE_MARKDOWN_MAX = 100_000;

const Note = Type.Object({
  id: Id("note"),
  title: Text({ maxLength: 200, default: "" }),
  emoji: Type.Optional(Text({ maxLength: 16, minLength: 1, trim: true })),
  markdown: Text({ maxLength: NOTE_MARKDOWN_MAX, default: "" }),
  updatedAt: DateTime({ default: "" }),
});

export const EditorConfig = Type.Object({ notes: ItemList(Note) });
export type EditorConfig = Static<typeof EditorConfig>;
export type Note = EditorConfig["notes"][number];

/** Notes live in the config; the notes provider is only a source to import pages from. */
export const editorWidget = defineWidgetType({
  type: "Editor",
  config: EditorConfig,
  data: { kind: "config" },
});
