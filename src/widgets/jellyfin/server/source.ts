import { createHash } from "node:crypto";
import type { AppContext } from "../../../server/context.js";
import { notFoundBecause, ProblemError, upstreamFailed } from "../../../server/http/errors.js";
import { answeredJson } from "../../../server/integrations/kit.js";
import type { UsableIntegration } from "../../../server/integrations/types.js";
import type { UpstreamResponse } from "../../../server/upstream/fetch.js";
import type { CachePolicy } from "../../../server/upstream/upstream.js";
import {
  JELLYFIN_LATEST_MAX,
  type JellyfinData,
  type JellyfinLatest,
  type JellyfinQuery,
} from "../contract.js";
import { type JellyfinUser, LatestItems, latestShown, latestUser, UserList } from "./latest.js";
import { nowPlaying, SessionList } from "./playing.js";

/** Playback moves on by the second: 10 s, shared by every widget and viewer of one server. */
export const JELLYFIN_SESSIONS: CachePolicy = {
  kind: "jellyfin-sessions",
  fresh: 10_000,
  failuresRemembered: true,
  staleIfError: false,
};

/** New films arrive a few a day: 5 minutes, and an older list may stand in while Jellyfin is down. */
export const JELLYFIN_LATEST: CachePolicy = {
  kind: "jellyfin-latest",
  fresh: 5 * 60_000,
  failuresRemembered: true,
  staleIfError: true,
};

export const JELLYFIN_USERS: CachePolicy = {
  kind: "jellyfin-users",
  fresh: 5 * 60_000,
  failuresRemembered: true,
  staleIfError: true,
};

/** Sessions a server may have (watching, idle apps, a day's worth with a long activity window). */
const ACTIVE_WITHIN_SECONDS = 960;

export async function usableJellyfin(ctx: AppContext, ownerId: string, integrationId: string) {
  try {
    return await ctx.integrations.usable(ownerId, integrationId, "jellyfin");
  } catch (error) {
    if (error instanceof ProblemError && error.status === 404)
      throw notFoundBecause("This Jellyfin integration is gone or not yours");
    throw error;
  }
}

/** The integration as saved now: a new key or address is a new key here, never served the old answers. */
export function connectionKey(integration: UsableIntegration): string {
  const hash = createHash("sha256")
    .update(`${integration.url}\0${integration.secrets.apiKey ?? ""}`)
    .digest("base64url");
  return `${integration.id}|${hash.slice(0, 16)}`;
}

/** The answer's JSON; a refused key is said in Jellyfin's words. */
export function jellyfinJson(integration: UsableIntegration, response: UpstreamResponse): unknown {
  if (response.status === 401)
    throw upstreamFailed(
      `Jellyfin refused the API key of ${integration.name} (401): make a new one in Jellyfin (Dashboard, API Keys) and save it in the integration`,
    );
  return answeredJson(response, integration.name);
}

export async function usersOf(ctx: AppContext, integration: UsableIntegration): Promise<JellyfinUser[]> {
  return ctx.upstream.cached(JELLYFIN_USERS, connectionKey(integration), async () => {
    const response = await ctx.integrations.call(integration, { path: "/Users", what: "its users" });
    return UserList.parse(jellyfinJson(integration, response), response).slice(0, 1000);
  });
}

async function sessionsOf(ctx: AppContext, integration: UsableIntegration) {
  return ctx.upstream.cached(JELLYFIN_SESSIONS, connectionKey(integration), async () => {
    const response = await ctx.integrations.call(integration, {
      path: "/Sessions",
      query: { activeWithinSeconds: String(ACTIVE_WITHIN_SECONDS) },
      what: "what is playing",
    });
    return SessionList.parse(jellyfinJson(integration, response), response);
  });
}

/**
 * The latest additions for the widget's user (or the first administrator): always the most a
 * widget shows, kept once per user, and cut per widget.
 */
export async function latestOf(
  ctx: AppContext,
  integration: UsableIntegration,
  userId: string | undefined,
): Promise<{ user: string | null; items: JellyfinLatest[] }> {
  const users = await usersOf(ctx, integration);
  const user = latestUser(users, userId);
  if (!user)
    throw notFoundBecause(
      userId
        ? `${integration.name} has no user with this id any more: choose one in the widget's settings`
        : `${integration.name} has no enabled administrator to show the latest additions for: choose a user in the widget's settings`,
    );
  const id = user.Id.replaceAll("-", "").toLowerCase();
  return ctx.upstream.cached(JELLYFIN_LATEST, `${connectionKey(integration)}|${id}`, async () => {
    const response = await ctx.integrations.call(integration, {
      path: "/Items/Latest",
      query: {
        userId: id,
        limit: String(JELLYFIN_LATEST_MAX),
        includeItemTypes: "Movie,Episode",
        enableImageTypes: "Primary",
        imageTypeLimit: "1",
        enableUserData: "false",
      },
      what: "its latest additions",
    });
    const items = LatestItems.parse(jellyfinJson(integration, response), response);
    return { user: user.Name?.slice(0, 200) ?? null, items: latestShown(items, JELLYFIN_LATEST_MAX) };
  });
}

/** What a Jellyfin widget shows, through its owner's integration. */
export function jellyfinSource(ctx: AppContext) {
  return async function load(query: JellyfinQuery, ownerId: string): Promise<JellyfinData> {
    const integration = await usableJellyfin(ctx, ownerId, query.integrationId);
    const [sessions, latest] = await Promise.all([
      sessionsOf(ctx, integration),
      query.latest > 0 ? latestOf(ctx, integration, query.userId) : null,
    ]);
    return {
      ...nowPlaying(sessions, query.users),
      latest: latest ? latest.items.slice(0, query.latest) : null,
      latestFor: latest && query.users ? latest.user : null,
    };
  };
}
