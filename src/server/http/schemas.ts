import { type TSchema, Type } from "@sinclair/typebox";
import { ProblemSchema, Uuid } from "../../contract/resources.js";

/** The documented error responses of a protected route, so the OpenAPI document lists every one. */
export function errorResponses(...statuses: number[]) {
  const out: Record<number, TSchema> = {};
  for (const status of [400, 401, 503, ...statuses]) out[status] = Type.Ref(ProblemSchema);
  return out;
}

export const IdQuery = Type.Object({ id: Uuid });
