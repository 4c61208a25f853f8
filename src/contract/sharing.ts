import type { Static } from "@sinclair/typebox";
import { Type } from "./typebox.js";

/**
 * Sharing dashboards with people and groups, and editing them together live (DESIGN section 14).
 */

const Uuid = Type.String({ format: "uuid" });

/** What the caller may do with a dashboard: every dashboard answer says it. */
export const ACCESS_LEVELS = ["owner", "editor", "viewer"] as const;
export type Access = (typeof ACCESS_LEVELS)[number];
export const AccessSchema = Type.Union(
  ACCESS_LEVELS.map((a) => Type.Literal(a)),
  { description: "owner, editor or viewer: what the caller may do with the dashboard" },
);

/** What a member is given. */
export const MEMBER_ROLES = ["viewer", "editor"] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
const RoleSchema = Type.Union(MEMBER_ROLES.map((r) => Type.Literal(r)));

/** Whom a dashboard is shared with: a user, a group, or every user of the instance. */
export const MEMBER_TYPES = ["user", "group", "everyone"] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];

export const GROUP_NAME_MAX = 100;
/** Enough for a team; a bigger list belongs to "everyone". */
export const GROUP_MEMBERS_MAX = 1000;
export const DASHBOARD_MEMBERS_MAX = 200;
/** `/api/realtime?dashboard=` may repeat up to this many times. */
export const WATCHED_DASHBOARDS_MAX = 10;

const GroupName = Type.String({ minLength: 1, maxLength: GROUP_NAME_MAX, pattern: "\\S" });
const UserIds = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: GROUP_MEMBERS_MAX,
  uniqueItems: true,
  description: "User ids",
});

export const GroupSchema = Type.Object(
  { id: Uuid, name: Type.String(), members: Type.Array(Type.String(), { description: "User ids" }) },
  { $id: "Group" },
);
export type Group = Static<typeof GroupSchema>;

export const CreateGroupBody = Type.Object({ name: GroupName, members: Type.Optional(UserIds) });
export const UpdateGroupBody = Type.Object({
  id: Uuid,
  name: Type.Optional(GroupName),
  members: Type.Optional(UserIds),
});

/** Whom a signed-in user may pick to share with. */
export const DirectorySchema = Type.Object(
  {
    users: Type.Array(
      Type.Object({
        id: Type.String(),
        name: Type.String(),
        image: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
    groups: Type.Array(Type.Object({ id: Uuid, name: Type.String() })),
  },
  { $id: "Directory" },
);
export type Directory = Static<typeof DirectorySchema>;

export const MemberSchema = Type.Object(
  {
    type: Type.Union(MEMBER_TYPES.map((t) => Type.Literal(t))),
    id: Type.Union([Type.String(), Type.Null()], { description: "null for everyone" }),
    name: Type.String({ description: "The user's or group's name; empty for everyone" }),
    role: RoleSchema,
  },
  { $id: "Member" },
);
export type Member = Static<typeof MemberSchema>;

/** One entry of `PUT /api/dashboards/members`: a user by id or email, a group by id, or everyone. */
export const MemberInput = Type.Union([
  Type.Object(
    { type: Type.Literal("user"), id: Type.String({ minLength: 1, maxLength: 200 }), role: RoleSchema },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      type: Type.Literal("user"),
      email: Type.String({ minLength: 3, maxLength: 320, pattern: "^[^@\\s]+@[^@\\s]+$" }),
      role: RoleSchema,
    },
    { additionalProperties: false },
  ),
  Type.Object({ type: Type.Literal("group"), id: Uuid, role: RoleSchema }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal("everyone"), role: RoleSchema }, { additionalProperties: false }),
]);
export type MemberInput = Static<typeof MemberInput>;

export const PutMembersBody = Type.Object({
  id: Uuid,
  members: Type.Array(MemberInput, { maxItems: DASHBOARD_MEMBERS_MAX }),
});

/** Who made a change (versions and live events carry it). */
export const AuthorSchema = Type.Object(
  { id: Type.String(), name: Type.String() },
  { $id: "Author", description: "Who made the change" },
);
export type Author = Static<typeof AuthorSchema>;

/** Someone watching a dashboard, and what they are editing (a widget id) if anything. */
export interface Presence {
  userId: string;
  name: string;
  image: string | null;
  editing: string | null;
}

export const PresenceBody = Type.Object({
  id: Uuid,
  editing: Type.Union([Uuid, Type.Null()], { description: "The widget the caller is editing, or null" }),
});

// Events of a watched dashboard (`/api/realtime?dashboard=`) and of the user's own channel.
export const WIDGET_CREATED = "widget.created";
export const WIDGET_UPDATED = "widget.updated";
export const WIDGET_DELETED = "widget.deleted";
export const DASHBOARD_UPDATED = "dashboard.updated";
export const PRESENCE = "presence";
export const ACCESS_CHANGED = "access.changed";

/** The header a tab sends with its writes, echoed in the events they cause so it can skip its own. */
export const CLIENT_ID_HEADER = "x-client-id";

/** Every dashboard event's envelope: what changed, who changed it, from which tab. */
export interface DashboardEvent<T = unknown> {
  dashboardId: string;
  data: T;
  by: Author | null;
  clientId: string | null;
}

/** The channel a dashboard's events travel on between instances. */
export const dashboardChannel = (dashboardId: string) => `dashboard-${dashboardId}`;

/**
 * Between instances only, never sent to a client: a dashboard's members changed, so streams
 * watching it check their access again.
 */
export const MEMBERS_CHANGED = "members.changed";

/** Schemas the server registers by `$id`, so the OpenAPI document names them. */
export const SHARING_SCHEMAS = [GroupSchema, DirectorySchema, MemberSchema, AuthorSchema];
