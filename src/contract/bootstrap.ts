import { type Static, Type } from "@sinclair/typebox";
import { type Me, MeSchema } from "./operators.js";
import { DashboardSchema, SettingsSchema, Uuid, WidgetSchema } from "./resources.js";

/**
 * Everything the signed-in app needs to draw its first screen, in one answer: who is signed in,
 * their dashboards and settings, and the widgets of the dashboard that opens.
 */
export const BootstrapSchema = Type.Object(
  {
    session: Type.Object({
      user: Type.Object({ id: Type.String(), name: Type.String(), email: Type.String() }),
      session: Type.Object({ id: Type.String(), expiresAt: Type.String({ format: "date-time" }) }),
    }),
    me: Type.Ref(MeSchema, { description: "As GET /api/me answers: the role decides the admin pages" }),
    dashboards: Type.Array(Type.Ref(DashboardSchema)),
    settings: Type.Ref(SettingsSchema),
    dashboardId: Type.Union([Uuid, Type.Null()], {
      description:
        "The dashboard whose widgets follow: the one asked for when the user may read it, else the last viewed, else the oldest; null without dashboards",
    }),
    widgets: Type.Array(Type.Ref(WidgetSchema)),
    notificationsReadUpTo: Type.Union([Uuid, Type.Null()], {
      description:
        "The notifications read mark, as GET /api/notifications/read answers `readUpTo`: every notification with an id up to it is read",
    }),
  },
  { $id: "Bootstrap" },
);

export interface Bootstrap
  extends Omit<Static<typeof BootstrapSchema>, "me" | "dashboards" | "settings" | "widgets"> {
  me: Me;
  dashboards: Static<typeof DashboardSchema>[];
  settings: Static<typeof SettingsSchema>;
  widgets: Static<typeof WidgetSchema>[];
}
