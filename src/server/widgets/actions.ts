import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { TypeCompiler } from "@sinclair/typebox/compiler";
import { and, eq } from "drizzle-orm";
import { Uuid } from "../../contract/resources.js";
import { widgetDefinition } from "../../widgets/index.js";
import type { AppContext } from "../context.js";
import { widgets } from "../db/schema.js";
import { badRequest, forbidden, notFound, ProblemError } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import type { UserActor } from "../policies/actor.js";
import { actionableWidgets, readableWidgets } from "../policies/records.js";
import type { ListedServer } from "./registry.js";

export const ActionBody = Type.Object({
  id: Uuid,
  action: Type.String({ minLength: 1, maxLength: 64, pattern: "^[a-z][a-zA-Z0-9-]*$" }),
  input: Type.Optional(Type.Unknown()),
});

export const ActionResultSchema = Type.Object({
  detail: Type.String({ description: "What was done, in words" }),
  result: Type.Optional(
    Type.Unknown({ description: "What the action answers, by type (the new state of a light)" }),
  ),
});

/** Widget actions (DESIGN section 15): editors of the widget's dashboard only, each recorded. */
export function widgetActionRoutes(servers: readonly ListedServer[]): FastifyPluginAsyncTypebox<AppContext> {
  const byType = new Map(
    servers.flatMap(({ definition, server }) =>
      server.actions ? [[definition.type, server.actions] as const] : [],
    ),
  );
  const inputChecks = new Map(
    [...byType].flatMap(([type, actions]) =>
      Object.entries(actions).map(
        ([name, action]) =>
          [`${type}|${name}`, action.input ? TypeCompiler.Compile(action.input) : null] as const,
      ),
    ),
  );
  return async (app, ctx) => {
    const { db } = ctx.database;
    app.post(
      "/api/widgets/action",
      {
        schema: {
          tags: ["Widgets"],
          summary: "Run a widget's action (toggle a light, pause ad blocking, restart a container)",
          description:
            "Editors of the widget's dashboard only: a viewer is 403, anyone else 404; never visitors. The integration the widget uses must allow actions (an admin's choice, 403 otherwise). Each attempt is recorded in the audit log with its outcome. `input` follows the action (400 with its path otherwise).",
          body: ActionBody,
          response: { 200: ActionResultSchema, ...errorResponses(403, 404, 502, 504) },
        },
      },
      async (request) => {
        const actor = request.actor as UserActor;
        const { id, action, input } = request.body;
        const [widget] = await db
          .select({ widgetType: widgets.widgetType, config: widgets.config, userId: widgets.userId })
          .from(widgets)
          .where(and(eq(widgets.id, id), readableWidgets(actor)))
          .limit(1);
        if (!widget) throw notFound("Widget");
        const [editable] = await db
          .select({ id: widgets.id })
          .from(widgets)
          .where(and(eq(widgets.id, id), actionableWidgets(actor)))
          .limit(1);
        if (!editable) {
          // Someone who can see the widget tried to act on it (a viewer, a disabled share): worth
          // an admin's eye, as the deeds are. Who cannot see it gets a 404 and leaves no trace.
          await ctx.audit.record(actor, {
            action: "widget.action",
            target: `widget:${id}`,
            detail: { widgetType: widget.widgetType, action, input: input ?? null, outcome: "refused" },
          });
          throw forbidden("Only editors of this dashboard may use its widgets' actions");
        }
        const actions = byType.get(widget.widgetType) ?? {};
        const run = actions[action];
        if (!run)
          throw badRequest(`A ${widget.widgetType} widget has no action ${JSON.stringify(action)}`, [
            { path: "/action", message: `must be one of: ${Object.keys(actions).join(", ") || "none"}` },
          ]);
        const check = inputChecks.get(`${widget.widgetType}|${action}`);
        if (check && !check.Check(input)) {
          const first = check.Errors(input).First();
          throw badRequest("input does not fit the action", [
            { path: `/input${first?.path ?? ""}`, message: first?.message ?? "is not valid" },
          ]);
        }
        const config = widgetDefinition(widget.widgetType)!.parse(widget.config);
        const target = `widget:${id}`;
        try {
          const done = await run.run({ ctx, config, widgetId: id, ownerId: widget.userId, actor, input });
          await ctx.audit.record(actor, {
            action: "widget.action",
            target,
            detail: {
              widgetType: widget.widgetType,
              action,
              input: input ?? null,
              outcome: "done",
              detail: done.detail,
            },
          });
          return done;
        } catch (error) {
          if (error instanceof ProblemError)
            await ctx.audit.record(actor, {
              action: "widget.action",
              target,
              detail: {
                widgetType: widget.widgetType,
                action,
                input: input ?? null,
                outcome: "failed",
                detail: error.detail,
              },
            });
          throw error;
        }
      },
    );
  };
}
