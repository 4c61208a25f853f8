import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import {
  DASHBOARD_RESTORED,
  NOTIFICATION_CREATED,
  NOTIFICATION_DISMISSED,
  NOTIFICATIONS_CLEARED,
  NOTIFICATIONS_READ,
  userChannel,
} from "../../contract/notifications.js";
import { Uuid } from "../../contract/resources.js";
import {
  ACCESS_CHANGED,
  CLIENT_ID_HEADER,
  DASHBOARD_UPDATED,
  PRESENCE,
  WATCHED_DASHBOARDS_MAX,
  WIDGET_CREATED,
  WIDGET_DELETED,
  WIDGET_UPDATED,
} from "../../contract/sharing.js";
import type { AppContext } from "../context.js";
import { tooManyStreams, unavailable } from "../http/errors.js";
import { headersSetSoFar } from "../http/hijack-headers.js";
import { errorResponses } from "../http/schemas.js";
import type { UserActor } from "../policies/actor.js";
import { assertMayListen } from "../policies/records.js";
import { publishDashboardEvents } from "./dashboard-events.js";
import { watchable } from "./dashboard-watch.js";
import { presenceRoutes } from "./presence-routes.js";
import { RETRY_MS } from "./sse-stream.js";
import { HEARTBEAT_MS, StreamHub } from "./stream-hub.js";

const UUID_PATTERN = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

const description = `Server-Sent Events for the signed-in user's channel \`user-<userId>\` (the default).
Each notification created with POST /api/notifications arrives, after it is stored, as

    id: <notification id>
    event: ${NOTIFICATION_CREATED}
    data: <the Notification JSON, exactly as GET /api/notifications returns it>

The stream starts with \`retry: ${RETRY_MS}\` and sends a comment line every ${HEARTBEAT_MS / 1000} s.
Reconnect with the \`Last-Event-ID\` header (or the \`lastEventId\` query parameter, for clients that
cannot set headers) to first receive every retained notification newer than that id, oldest first,
then live ones. Delivery is at least once; de-duplicate by id. The stream ends when the session is
signed out or expires, and when the server shuts down (reconnect then).

The stream also carries \`${ACCESS_CHANGED}\` \`{dashboardId, access}\` whenever sharing changes what the
user may do with a dashboard (\`access\` null: they can no longer read it), and \`${DASHBOARD_RESTORED}\`
\`{dashboardId}\` when they restored a version of a dashboard (reload its widgets; a stream watching that
dashboard gets the dashboard's own \`${DASHBOARD_RESTORED}\`, below, instead).

Whatever device made them, the user's notification state changes arrive as \`${NOTIFICATIONS_READ}\`
\`{readUpTo}\` (the read mark moved: PUT /api/notifications/read), \`${NOTIFICATION_DISMISSED}\` \`{id}\` and
\`${NOTIFICATIONS_CLEARED}\` \`{}\`, without an \`id:\` line: they are not replayed, so after a reconnect
read the list and GET /api/notifications/read again.

**Watching dashboards.** Add \`dashboard=<id>\` (it may repeat, up to ${WATCHED_DASHBOARDS_MAX}; each must be a
dashboard you may read, else 404 before the stream opens) to also receive those dashboards' changes,
whoever makes them, on any instance. Each is sent as \`event: <name>\` and \`data: <JSON>\`, without an
\`id:\` line: these are not replayed after a reconnect, so reload the watched dashboards then. The
\`data\` of a change is an envelope \`{dashboardId, data, by: {id, name} | null, clientId}\`, where
\`clientId\` is the \`${CLIENT_ID_HEADER}\` header of the request that made the change (null without one), so
a tab can skip its own echo; your own tabs receive your changes too.

- \`${WIDGET_CREATED}\`, \`${WIDGET_UPDATED}\`: \`data\` is the widget, as GET /api/widgets answers it.
- \`${WIDGET_DELETED}\`: \`data\` is \`{id, dashboardId}\`.
- \`${DASHBOARD_UPDATED}\`: \`data\` is the dashboard as GET /api/dashboards?id= answers you: its \`access\` and
  \`owner\` are yours, not the writer's.
- \`${DASHBOARD_RESTORED}\`: a version was restored; \`data\` is \`{dashboardId}\`. It follows the restore's
  \`${DASHBOARD_UPDATED}\` and stands for every widget the restore put back or took away (no
  widget events are sent for them): reload the dashboard's widgets.
- \`${PRESENCE}\` (no envelope): \`{dashboardId, present: [{userId, name, image, editing}]}\`, everyone watching
  the dashboard once each, \`editing\` the widget id they said they edit (POST /api/dashboards/presence)
  or null. Sent right after the stream starts and whenever someone starts or stops watching or editing.
- \`${ACCESS_CHANGED}\` \`{dashboardId, access: null}\`: you can no longer read a watched dashboard (you were
  removed, or it was deleted); no more of its events follow. Sent once, whether it comes from your
  own channel or from the dashboard.

When a watched dashboard's members change, your access is checked again before any later event of it
is sent. If the server loses its event bus for a moment, streams watching dashboards end: reconnect
and reload.`;

/** Notifications newer than this id were created after `ms`: the cursor of a fresh connection. */
function uuidv7Floor(ms: number): string {
  const hex = ms.toString(16).padStart(12, "0");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

/** Realtime notifications over Server-Sent Events (DESIGN section 4). */
export const realtimeRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const hub = new StreamHub(ctx, app.log);
  ctx.metrics?.gauge("tessera_realtime_streams", "Open realtime streams on this instance", () => hub.count());
  hub.start();
  // Before the server stops listening: open streams would otherwise keep close() waiting.
  app.addHook("preClose", async () => hub.close());
  const stopPublishing = publishDashboardEvents(ctx.changes, ctx.bus, app.log);
  app.addHook("onClose", async () => stopPublishing());
  await app.register(presenceRoutes, { ...ctx, presence: hub.presence });

  app.get(
    "/api/realtime",
    {
      exposeHeadRoute: false,
      schema: {
        tags: ["Realtime"],
        summary:
          "Stream the user's notifications, and the changes of watched dashboards, as Server-Sent Events",
        description,
        querystring: Type.Object({
          channel: Type.Optional(
            Type.String({ pattern: `^user-${UUID_PATTERN}$`, description: "user-<userId>; your own" }),
          ),
          lastEventId: Type.Optional({ ...Uuid, description: "Same as the Last-Event-ID header" }),
          dashboard: Type.Optional(
            Type.Union([Uuid, Type.Array(Uuid, { minItems: 1, maxItems: WATCHED_DASHBOARDS_MAX })], {
              description: `A dashboard to watch; repeat for more, up to ${WATCHED_DASHBOARDS_MAX}`,
            }),
          ),
        }),
        headers: Type.Object({ "last-event-id": Type.Optional(Uuid) }),
        response: {
          200: {
            description: "The event stream",
            content: { "text/event-stream": { schema: Type.String() } },
          },
          ...errorResponses(403, 404, 429),
        },
      },
    },
    async (request, reply) => {
      // The route needs a user, so the actor the auth hook attached is one.
      const actor = request.actor as UserActor;
      const userId = actor.user.id;
      assertMayListen(actor, request.query.channel ?? userChannel(userId));
      if (hub.isClosed) {
        throw unavailable("The server is shutting down; reconnect", RETRY_MS / 1000);
      }
      // Each stream holds a socket and a subscription: one account must not hold them all.
      const cap = ctx.config.limits.streams;
      if (hub.openStreams(userId) >= cap)
        throw tooManyStreams(`At most ${cap} realtime streams per user; close a tab or another client first`);
      // The header wins: EventSource updates it on each reconnect, the URL keeps its first value.
      const lastEventId = request.headers["last-event-id"] ?? request.query.lastEventId;
      const asked = request.query.dashboard;
      const watched = asked === undefined ? [] : await watchable(ctx.database.db, actor, [asked].flat());

      // A stream is quiet between heartbeats by design: the idle timeout of other connections
      // (HTTP_IDLE_TIMEOUT_SECONDS) does not apply to it. Slow-reading clients are dropped by backlog.
      request.raw.socket.setTimeout(0);
      const headersSoFar = headersSetSoFar(reply);
      reply.hijack();
      hub.open(
        reply.raw,
        {
          ...headersSoFar,
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-cache",
          "x-accel-buffering": "no",
          "x-request-id": String(request.id),
        },
        {
          userId,
          watched,
          since: lastEventId?.toLowerCase() ?? uuidv7Floor(Date.now()),
          credentials: actor.credentials,
          sessionExpiresAt:
            actor.via === "session"
              ? actor.session.expiresAt
              : (actor.key.expiresAt ?? Number.POSITIVE_INFINITY),
        },
      );
    },
  );
};
