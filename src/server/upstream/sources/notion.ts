import { type Static, Type } from "@sinclair/typebox";
import { defineSource } from "../source.js";

/** Notion API 2022-06-28 (https://developers.notion.com/reference). */
const Maybe = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

const RichTextSchema = Type.Object({
  plain_text: Type.Optional(Type.String()),
  href: Maybe(Type.String()),
  annotations: Type.Optional(
    Type.Object({
      bold: Type.Optional(Type.Boolean()),
      italic: Type.Optional(Type.Boolean()),
      strikethrough: Type.Optional(Type.Boolean()),
      code: Type.Optional(Type.Boolean()),
    }),
  ),
});
export type RichText = Static<typeof RichTextSchema>;

const NotionPageSchema = Type.Object({
  id: Type.String(),
  url: Maybe(Type.String()),
  icon: Maybe(Type.Object({ type: Type.Optional(Type.String()), emoji: Type.Optional(Type.String()) })),
  last_edited_time: Maybe(Type.String()),
  parent: Maybe(
    Type.Object({
      type: Type.Optional(Type.String()),
      page_id: Maybe(Type.String()),
      database_id: Maybe(Type.String()),
    }),
  ),
  properties: Type.Optional(
    Type.Record(
      Type.String(),
      Type.Object({ type: Type.Optional(Type.String()), title: Type.Optional(Type.Array(RichTextSchema)) }),
    ),
  ),
});
export type NotionPageBody = Static<typeof NotionPageSchema>;

export const NotionPage = defineSource(NotionPageSchema);

export const NotionSearch = defineSource(
  Type.Object({
    results: Type.Optional(Type.Array(NotionPageSchema)),
    next_cursor: Maybe(Type.String()),
    has_more: Type.Optional(Type.Boolean()),
  }),
);

/** Block payloads differ by `type` and are read defensively by the Markdown renderer. */
export const NotionBlockChildren = defineSource(
  Type.Object({
    results: Type.Optional(
      Type.Array(
        Type.Object({ id: Type.String(), type: Type.String(), has_children: Type.Optional(Type.Boolean()) }),
      ),
    ),
    next_cursor: Maybe(Type.String()),
    has_more: Type.Optional(Type.Boolean()),
  }),
);
