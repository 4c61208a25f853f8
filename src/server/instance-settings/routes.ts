import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { InstanceSettingsSchema, UpdateInstanceSettingsBody } from "../../contract/instance-settings.js";
import type { AppContext } from "../context.js";
import { errorResponses } from "../http/schemas.js";
import type { UserActor } from "../policies/actor.js";

const tags = ["Administration"];
const admin = { access: "admin" } as const;

/** `GET`/`PUT /api/admin/settings`: the instance settings of the admin page. */
export const instanceSettingsRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  app.get(
    "/api/admin/settings",
    {
      config: admin,
      schema: {
        tags,
        summary: "The instance settings: each one's value, where it comes from and whether it may change",
        response: { 200: Type.Ref(InstanceSettingsSchema), ...errorResponses(403) },
      },
    },
    async () => ctx.instanceSettings.view(),
  );

  app.put(
    "/api/admin/settings",
    {
      config: admin,
      schema: {
        tags,
        summary: "Change instance settings; every instance applies them at once",
        description:
          "Only the settings sent change, all or none. A bad value is 400 with its path (`/privateNetworks/2`); a setting its environment variable sets (SIGNUP_MODE, FETCH_ALLOW_PRIVATE) is 409 `set_by_environment`, unless the value sent is the one it already has. `starterDashboard`: a dashboard the admin can open, copied into every account created from now on (widgets that read connected accounts without their settings); null for none.",
        body: UpdateInstanceSettingsBody,
        response: { 200: Type.Ref(InstanceSettingsSchema), ...errorResponses(403, 409) },
      },
    },
    async (request) => {
      await ctx.instanceSettings.update(request.body, request.actor as UserActor);
      return ctx.instanceSettings.view();
    },
  );
};
