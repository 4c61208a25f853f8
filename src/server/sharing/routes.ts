import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  CreateGroupBody,
  DirectorySchema,
  GroupSchema,
  MemberSchema,
  PutMembersBody,
  UpdateGroupBody,
} from "../../contract/sharing.js";
import type { AppContext } from "../context.js";
import type { Db } from "../db/client.js";
import { notFound } from "../http/errors.js";
import { errorResponses, IdQuery } from "../http/schemas.js";
import type { UserActor } from "../policies/actor.js";
import { dashboardFor, refuseDashboard } from "../policies/records.js";
import { type AccessChange, accessChanges, announceAccess, readersOf } from "./access-changes.js";
import { directoryFor } from "./directory.js";
import { createGroup, dashboardsOfGroup, deleteGroup, listGroups, updateGroup } from "./groups.js";
import { listMembers, replaceMembers } from "./members.js";

const admin = { access: "admin" } as const;
const groupTags = ["Groups"];
const sharingTags = ["Sharing"];

/**
 * Groups, the directory of people to share with, and a dashboard's members (DESIGN section 14).
 * Every change that can change who reads what is made in one transaction that reads the readers
 * before and after, and tells exactly those whose access changed, on every instance.
 */
export const sharingRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const { db } = ctx.database;

  /** Runs `write` in a transaction and announces the access it changed once it committed. */
  async function changingAccess<T>(
    dashboardIds: (tx: Db) => Promise<readonly string[]>,
    write: (tx: Db) => Promise<T>,
  ): Promise<T> {
    let changes: AccessChange[] = [];
    let touched: readonly string[] = [];
    const result = await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      touched = await dashboardIds(tx);
      const before = await readersOf(tx, touched);
      const written = await write(tx);
      changes = accessChanges(before, await readersOf(tx, touched));
      return written;
    });
    await announceAccess(ctx.bus, app.log, touched, changes);
    return result;
  }

  app.get(
    "/api/admin/groups",
    {
      config: admin,
      schema: {
        tags: groupTags,
        summary: "Every group with its members (admins only)",
        response: { 200: Type.Array(Type.Ref(GroupSchema)), ...errorResponses(403) },
      },
    },
    async () => listGroups(db),
  );

  app.post(
    "/api/admin/groups",
    {
      config: admin,
      schema: {
        tags: groupTags,
        summary: "Create a group (admins only)",
        body: CreateGroupBody,
        response: { 201: Type.Ref(GroupSchema), ...errorResponses(403, 415) },
      },
    },
    async (request, reply) => {
      const { name, members = [] } = request.body;
      const group = await db.transaction((tx) => createGroup(tx as unknown as Db, name.trim(), members));
      await ctx.audit.after(
        request.actor as UserActor,
        { action: "group.created", target: `group:${group.id}`, detail: { name: group.name, members } },
        request.log,
      );
      return reply.code(201).send(group);
    },
  );

  app.put(
    "/api/admin/groups",
    {
      config: admin,
      schema: {
        tags: groupTags,
        summary: "Rename a group or replace its members (admins only)",
        description:
          "Members who join or leave get `access.changed` for each dashboard shared with the group.",
        body: UpdateGroupBody,
        response: { 200: Type.Ref(GroupSchema), ...errorResponses(403, 404, 415) },
      },
    },
    async (request) => {
      const { id, name, members } = request.body;
      const group = await changingAccess(
        (tx) => dashboardsOfGroup(tx, id),
        (tx) => updateGroup(tx, id, { name: name?.trim(), members }),
      );
      if (!group) throw notFound("Group");
      await ctx.audit.after(
        request.actor as UserActor,
        {
          action: "group.changed",
          target: `group:${id}`,
          detail: { name: group.name, members: members ?? null },
        },
        request.log,
      );
      return group;
    },
  );

  app.delete(
    "/api/admin/groups",
    {
      config: admin,
      schema: {
        tags: groupTags,
        summary: "Delete a group, and every dashboard membership it had (admins only)",
        querystring: IdQuery,
        response: { 200: Type.Ref(GroupSchema), ...errorResponses(403, 404) },
      },
    },
    async (request) => {
      const { id } = request.query;
      const group = await changingAccess(
        (tx) => dashboardsOfGroup(tx, id),
        (tx) => deleteGroup(tx, id),
      );
      if (!group) throw notFound("Group");
      await ctx.audit.after(
        request.actor as UserActor,
        { action: "group.deleted", target: `group:${id}`, detail: { name: group.name } },
        request.log,
      );
      return group;
    },
  );

  app.get(
    "/api/directory",
    {
      schema: {
        tags: sharingTags,
        summary: "The people and groups the caller can share with",
        description:
          "Every user of the instance and every group. When anyone may sign up (sign-up mode `open`), only the caller's own groups and no users: share with people by email instead.",
        response: { 200: Type.Ref(DirectorySchema), ...errorResponses() },
      },
    },
    async (request) => directoryFor(db, request.user.id, (await ctx.instanceSettings.current()).signupMode),
  );

  app.get(
    "/api/dashboards/members",
    {
      schema: {
        tags: sharingTags,
        summary: "Whom a dashboard is shared with, and as what",
        description: "Anyone who may read the dashboard may see its members.",
        querystring: IdQuery,
        response: { 200: Type.Array(Type.Ref(MemberSchema)), ...errorResponses(404) },
      },
    },
    async (request) => {
      const dashboard = await dashboardFor(db, request.actor, "read", request.query.id);
      if (!dashboard) throw notFound("Dashboard");
      return listMembers(db, dashboard.id);
    },
  );

  app.put(
    "/api/dashboards/members",
    {
      schema: {
        tags: sharingTags,
        summary: "Replace whom a dashboard is shared with (its owner or an admin)",
        description:
          "A user by `id` or `email`, a group by `id`, or `everyone` (every user of the instance), each as `viewer` or `editor`. " +
          "Unknown users or groups, the owner, or one named twice: 400 `validation_failed` with each member's path, and nothing changes. " +
          "A member gets 403, anyone else 404. Everyone whose access changed gets `access.changed` on their stream.",
        body: PutMembersBody,
        response: { 200: Type.Array(Type.Ref(MemberSchema)), ...errorResponses(403, 404, 415) },
      },
    },
    async (request) => {
      const { id, members } = request.body;
      const dashboard = await dashboardFor(db, request.actor, "manage", id);
      if (!dashboard) throw await refuseDashboard(db, request.actor, id);
      const shared = await changingAccess(
        async () => [dashboard.id],
        async (tx) => {
          await replaceMembers(tx, dashboard, members);
          return listMembers(tx, dashboard.id);
        },
      );
      await ctx.audit.after(
        request.actor as UserActor,
        {
          action: "dashboard.shared",
          target: `dashboard:${dashboard.id}`,
          detail: {
            name: dashboard.name,
            members: shared.map((m) => ({ type: m.type, id: m.id, name: m.name, role: m.role })),
          },
        },
        request.log,
      );
      return shared;
    },
  );
};
