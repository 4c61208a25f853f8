import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  AVATAR_MAX_CHARS,
  AvatarBody,
  ChangeEmailBody,
  ChangePasswordBody,
  PasswordChangedSchema,
  ProfileSchema,
} from "../../contract/account.js";
import type { AppContext } from "../context.js";
import type { RateLimitRule } from "../http/rate-limit.js";
import { errorResponses } from "../http/schemas.js";
import { setAvatar } from "./avatar.js";
import { changeEmail } from "./email.js";
import { changePassword } from "./password.js";
import { loadProfile } from "./profile.js";

const tags = ["Account"];
// Credentials are for people: API keys cannot change them (DESIGN section 9). The profile and the
// picture are the user's data like any other: `read` and `write` keys, as for every route.
const people = { access: "session" } as const;

/** Settings › Profile: the caller's password, email address and picture. */
export const profileRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;
  // A stolen session must not become a way to guess the password: each try spends from the
  // user's budget, as sign-in attempts do from the address's.
  const guesses: RateLimitRule = {
    name: "account:password",
    key: (request) => request.user?.id ?? null,
    limit: ctx.config.rateLimits.authPerEmail,
    windowMs: ctx.config.rateLimits.authWindowMs,
    detail: "Too many password attempts; wait before trying again",
  };

  app.get(
    "/api/account",
    {
      schema: {
        tags,
        summary: "The caller's own account: name, email, picture, and whether it has a password",
        response: { 200: Type.Ref(ProfileSchema), ...errorResponses(403) },
      },
    },
    async (request) => loadProfile(db, request.user.id),
  );

  app.post(
    "/api/account/password",
    {
      config: { ...people, rateLimit: [guesses] },
      schema: {
        tags,
        summary: "Change the password; every other session is signed out",
        description:
          "Needs the current password (400 `wrong_password` when it is not, and nothing changes). The new one follows the sign-up rules. Every session of the user ends and this one continues under a new `session` cookie, set by this answer; a script that sent its session token as a bearer must sign in again. An account that signs in with single sign-on only has no password: 409 `no_password`. Each attempt spends from a per-user budget (`RATE_LIMIT_AUTH_PER_EMAIL` per `RATE_LIMIT_AUTH_WINDOW_SECONDS`).",
        body: ChangePasswordBody,
        response: { 200: PasswordChangedSchema, ...errorResponses(403, 409, 429) },
      },
    },
    async (request, reply) => {
      const { cookies, ...answer } = await changePassword(ctx, request, request.body);
      for (const cookie of cookies) reply.header("set-cookie", cookie);
      return answer;
    },
  );

  app.post(
    "/api/account/email",
    {
      config: { ...people, rateLimit: [guesses] },
      schema: {
        tags,
        summary: "Change the email address, confirmed with the current password",
        description:
          "The address compares without regard to case; one another account uses is 409 `email_taken`, a wrong password 400 `wrong_password`, an account without a password (single sign-on only) 409 `no_password`; in each case nothing changes. The new address is unverified (`emailVerified: false`): single sign-on does not link to it by email until it is proven again. Spends from the same per-user budget as the password change.",
        body: ChangeEmailBody,
        response: { 200: Type.Ref(ProfileSchema), ...errorResponses(403, 409, 429) },
      },
    },
    async (request) => changeEmail(ctx, request.user.id, request.body),
  );

  app.put(
    "/api/account/avatar",
    {
      schema: {
        tags,
        summary: "Set the picture shown wherever the user is",
        description: `A data: URL of a PNG, JPEG or WebP image, at most ${AVATAR_MAX_CHARS} characters (the web app sends a 128 px square); its bytes must be of the type it names.`,
        body: AvatarBody,
        response: { 200: Type.Ref(ProfileSchema), ...errorResponses(403) },
      },
    },
    async (request) => setAvatar(ctx, request.user.id, request.body.image),
  );

  app.delete(
    "/api/account/avatar",
    {
      schema: {
        tags,
        summary: "Remove the picture: initials are shown instead",
        response: { 200: Type.Ref(ProfileSchema), ...errorResponses(403) },
      },
    },
    async (request) => setAvatar(ctx, request.user.id, null),
  );
};
