import { randomBytes } from "node:crypto";
import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { APIError } from "better-auth/api";
import {
  AdminUserSchema,
  CreateAccountBody,
  CreatedInviteSchema,
  CreateInviteBody,
  InstanceSchema,
  InviteSchema,
  MeSchema,
  UpdateUserBody,
} from "../../contract/operators.js";
import type { AppContext } from "../context.js";
import { user } from "../db/schema.js";
import { badRequest, found, notFound, ProblemError } from "../http/errors.js";
import type { RateLimitRule } from "../http/rate-limit.js";
import { errorResponses, IdQuery } from "../http/schemas.js";
import { meOf, type UserActor } from "../policies/actor.js";
import { createInvite, lookUpInvite, openInvites, revokeInvite } from "./invites.js";
import { deleteUser, getUser, listUsers, updateUser } from "./users.js";

/** A generated initial password: 18 random bytes, 24 characters, nothing to guess. */
const generatedPassword = () => randomBytes(18).toString("base64url");

/** better-auth's refusals of an account an admin creates, as our problems. */
function accountRefusal(error: unknown): ProblemError | null {
  if (!(error instanceof APIError)) return null;
  const code = (error.body as { code?: unknown } | undefined)?.code;
  if (code === "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL")
    return new ProblemError(409, "email_taken", "An account with this email address already exists");
  if (code === "INVALID_EMAIL")
    return badRequest("The email address is not valid", [{ path: "/email", message: "is not valid" }]);
  if (code === "PASSWORD_TOO_LONG" || code === "PASSWORD_TOO_SHORT")
    return badRequest("The password must be 8 to 128 characters", [
      { path: "/password", message: "must be 8 to 128 characters" },
    ]);
  return null;
}

/** PostgreSQL 23505: the same email created twice at once; the unique index let one through. */
const isUniqueViolation = (error: unknown) => {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return e?.code === "23505" || e?.cause?.code === "23505";
};

const UserIdQuery = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const InviteTokenQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });
const InviteLookupSchema = Type.Object({
  status: Type.Union(
    [Type.Literal("open"), Type.Literal("used"), Type.Literal("expired"), Type.Literal("unknown")],
    { description: "`open`: sign-up can use it now" },
  ),
  email: Type.Union([Type.String(), Type.Null()], {
    description:
      "The address an open invite admits, the only one it does; null when it admits anyone or is not open",
  }),
});
const admin = { access: "admin" } as const;

/** `/api/me`, `/api/instance` and the admin endpoints of DESIGN section 8. */
export const operatorRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

  app.get(
    "/api/me",
    {
      schema: {
        tags: ["Account"],
        summary: "Who is signed in, with their role",
        response: { 200: Type.Ref(MeSchema), ...errorResponses() },
      },
    },
    async (request) => meOf(request.actor as UserActor),
  );

  app.get(
    "/api/instance",
    {
      config: { access: "public" },
      schema: {
        tags: ["Account"],
        summary: "How people get in: sign-up mode, password sign-in, single sign-on",
        security: [],
        response: { 200: Type.Ref(InstanceSchema), ...errorResponses() },
      },
    },
    async () => {
      const { passwordLogin, oidc } = ctx.config.access;
      const [hasUsers, { signupMode }] = await Promise.all([
        db.$count(user).then((count) => count > 0),
        ctx.instanceSettings.current(),
      ]);
      return {
        signupMode,
        passwordLogin,
        sso: oidc
          ? {
              providerId: oidc.providerId,
              displayName: oidc.displayName,
              // While down, each sign-in page asks again (the background retry is slower).
              available: ctx.sso.available() || (await ctx.sso.recheck()),
            }
          : null,
        hasUsers,
      };
    },
  );

  // Tokens are 24 random bytes, beyond guessing; the budget keeps the lookup from being a cheap
  // way to hammer the database, as sign-up attempts are kept.
  const lookupBudget: RateLimitRule = {
    name: "invite:lookup",
    key: (request) => request.ip,
    limit: ctx.config.rateLimits.authPerIp,
    windowMs: ctx.config.rateLimits.authWindowMs,
    detail: "Too many invite lookups; wait before trying again",
  };

  app.get(
    "/api/invites/lookup",
    {
      config: { access: "public", rateLimit: [lookupBudget] },
      schema: {
        tags: ["Account"],
        summary: "What the sign-up page needs of an invite link: whether it is usable, and for whom",
        description:
          "For whoever holds the link (no session): `unknown`, `used` and `expired` say why sign-up will refuse it; an `open` invite bound to an address names it, so the page can fill it in. Nothing else of the invite (role, creator) is told. Rate-limited per client address like sign-in attempts (`RATE_LIMIT_AUTH_PER_IP`).",
        security: [],
        querystring: InviteTokenQuery,
        response: { 200: InviteLookupSchema, ...errorResponses(429) },
      },
    },
    async (request) => lookUpInvite(db, request.query.token, ctx.clock()),
  );

  app.get(
    "/api/admin/users",
    {
      config: admin,
      schema: {
        tags: ["Administration"],
        summary: "Every user of the instance",
        response: { 200: Type.Array(Type.Ref(AdminUserSchema)), ...errorResponses(403) },
      },
    },
    async () => listUsers(db),
  );

  app.post(
    "/api/admin/users",
    {
      config: admin,
      schema: {
        tags: ["Administration"],
        summary: "Create an account (in every sign-up mode; the way in when sign-up is closed)",
        description:
          "Without `password`, one is generated and answered once in `password`; with one, `password` is null (the admin knows it). The address is taken as the admin's word (as an invite bound to it is), so single sign-on may later link to it. An address that has an account is 409 `email_taken`.",
        body: CreateAccountBody,
        response: {
          201: Type.Object({
            user: Type.Ref(AdminUserSchema),
            password: Type.Union([Type.String(), Type.Null()], {
              description: "The generated initial password, in this answer only",
            }),
          }),
          ...errorResponses(403, 409),
        },
      },
    },
    async (request, reply) => {
      const { name, email, role = "member" } = request.body;
      const generated = request.body.password === undefined ? generatedPassword() : null;
      let id: string;
      try {
        // The admin plugin's own endpoint, called by the server (closed to HTTP in auth.ts): it
        // hashes the password as sign-up does and runs the same hooks (settings row, starting dashboard).
        const created = await ctx.auth.api.createUser({
          body: { name: name.trim(), email, password: request.body.password ?? generated!, role },
        });
        id = created.user.id;
      } catch (error) {
        if (isUniqueViolation(error))
          throw new ProblemError(409, "email_taken", "An account with this email address already exists");
        throw accountRefusal(error) ?? error;
      }
      const account = found(await getUser(db, id), "Created user");
      await ctx.audit.after(
        request.actor as UserActor,
        { action: "user.created", target: `user:${id}`, detail: { name: account.name, email, role } },
        request.log,
      );
      return reply.code(201).send({ user: account, password: generated });
    },
  );

  app.put(
    "/api/admin/users",
    {
      config: admin,
      schema: {
        tags: ["Administration"],
        summary: "Change a user's role or disable them (ends their sessions and API keys at once)",
        body: UpdateUserBody,
        response: { 200: Type.Ref(AdminUserSchema), ...errorResponses(403, 404, 409) },
      },
    },
    async (request) => {
      const { id, role, disabled } = request.body;
      if (role === undefined && disabled === undefined)
        throw badRequest("Nothing to change: send role or disabled", [
          { path: "", message: "must have role or disabled" },
        ]);
      const updated = await updateUser(db, { id, role, disabled });
      // Role and disabled state are cached with sessions: every instance forgets them now.
      await ctx.sessions.revokeUser(id);
      await ctx.audit.after(
        request.actor as UserActor,
        { action: "user.changed", target: `user:${id}`, detail: { name: updated.name, role, disabled } },
        request.log,
      );
      return updated;
    },
  );

  app.delete(
    "/api/admin/users",
    {
      config: admin,
      schema: {
        tags: ["Administration"],
        summary: "Delete a user and everything they own",
        querystring: UserIdQuery,
        response: { 204: Type.Null(), ...errorResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { id } = request.query;
      const gone = await getUser(db, id);
      // The Redis notification store (there is one when there is Redis) is outside the
      // database's cascade: cleared inside the delete's transaction, so Redis being down is a 503
      // with nothing deleted, never a deleted user whose list lives on.
      await deleteUser(db, id, ctx.redis ? () => ctx.notifications.clear(id) : undefined);
      // The sessions rows are gone; other instances' caches are told to forget them. Done: a
      // failure here must not answer as if nothing was deleted (their caches expire on their own).
      await ctx.sessions.revokeUser(id).catch((error: unknown) => {
        request.log.warn({ err: error }, "could not tell other instances of a deleted user's sessions");
      });
      await ctx.audit.after(
        request.actor as UserActor,
        {
          action: "user.deleted",
          target: `user:${id}`,
          detail: { name: gone?.name ?? null, email: gone?.email ?? null },
        },
        request.log,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    "/api/admin/invites",
    {
      config: admin,
      schema: {
        tags: ["Administration"],
        summary: "Create a single-use sign-up invite (the link is shown once)",
        body: CreateInviteBody,
        response: { 201: Type.Ref(CreatedInviteSchema), ...errorResponses(403) },
      },
    },
    async (request, reply) => {
      const { token, invite } = await createInvite(db, {
        ...request.body,
        createdBy: request.user.id,
        now: ctx.clock(),
      });
      const url = `${ctx.config.baseUrl}/signup?invite=${encodeURIComponent(token)}`;
      return reply.code(201).send({
        id: invite.id,
        url,
        token,
        email: invite.email,
        role: invite.role,
        expiresAt: invite.expiresAt,
      });
    },
  );

  app.get(
    "/api/admin/invites",
    {
      config: admin,
      schema: {
        tags: ["Administration"],
        summary: "Invites that can still be used (never their tokens)",
        response: { 200: Type.Array(Type.Ref(InviteSchema)), ...errorResponses(403) },
      },
    },
    async () => openInvites(db, ctx.clock()),
  );

  app.delete(
    "/api/admin/invites",
    {
      config: admin,
      schema: {
        tags: ["Administration"],
        summary: "Revoke an unused invite",
        querystring: IdQuery,
        response: { 204: Type.Null(), ...errorResponses(403, 404) },
      },
    },
    async (request, reply) => {
      if (!(await revokeInvite(db, request.query.id))) throw notFound("Invite");
      return reply.code(204).send(null);
    },
  );
};
