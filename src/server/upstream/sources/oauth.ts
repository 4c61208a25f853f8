import { Type } from "@sinclair/typebox";
import { defineSource } from "../source.js";

const Maybe = <T extends Parameters<typeof Type.Optional>[0]>(schema: T) =>
  Type.Optional(Type.Union([schema, Type.Null()]));

/** A token endpoint's answer to a refresh (RFC 6749 section 5.1). */
export const OAuthTokens = defineSource(
  Type.Object({
    access_token: Type.String({ minLength: 1 }),
    refresh_token: Maybe(Type.String()),
    expires_in: Maybe(Type.Number()),
    refresh_token_expires_in: Maybe(Type.Number()),
    scope: Maybe(Type.String()),
  }),
);

/** A user-info answer: each provider names the fields differently, so they are read one by one. */
export const UserInfo = defineSource(Type.Record(Type.String(), Type.Unknown()));
