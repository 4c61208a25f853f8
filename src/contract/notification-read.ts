import type { Static } from "@sinclair/typebox";
import { Type } from "./typebox.js";

/**
 * The notifications read mark (one per user, every device) as the API carries it. Apart from
 * notifications.ts, whose plain constants the web app imports: these schemas stay out of its bundle.
 */

const Uuid = Type.String({ format: "uuid" });

/**
 * The read mark: every notification with an id up to `readUpTo` is read (ids are UUIDv7, so id
 * order is time order). One per user, shared by every device; null until anything was read.
 */
export const ReadMarkSchema = Type.Object({
  readUpTo: Type.Union([Uuid, Type.Null()], {
    description: "The newest notification id read; every id up to it is read. null: none read yet",
  }),
});
export type ReadMark = Static<typeof ReadMarkSchema>;

export const MarkReadBody = Type.Object({
  upTo: Type.String({
    format: "uuid",
    description:
      "A notification id (UUIDv7): it and every older one become read. A mark older than the stored one changes nothing",
  }),
});
export type MarkReadInput = Static<typeof MarkReadBody>;
