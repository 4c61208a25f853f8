import { type TSchema, Type } from "@sinclair/typebox";
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ProblemSchema, Uuid } from "../../contract/resources.js";
import type { ServiceDataSource, WidgetTypeDefinition } from "../../contract/widget-kit/define.js";
import { widgetDefinition } from "../../widgets/index.js";
import type { AppContext } from "../context.js";
import { type EncodedJson, sendEncodedJson, sendJsonText } from "../http/encoded-json.js";
import { found, notFoundBecause } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { VISITOR } from "../policies/actor.js";
import { readableWidget } from "../policies/records.js";
import type { Observed } from "../upstream/upstream.js";

/**
 * A widget type's outside data (a keyless service: feeds, forecasts, prices, checks), declared in
 * its server half. Whoever may read the widget gets what its stored config asks for, never what a
 * request's parameters ask for.
 */
export interface WidgetData<Q = never> {
  /** The schema of one answer of `load`. */
  response: TSchema;
  /** For the OpenAPI document of the type's public route. */
  summary: string;
  description: string;
  /**
   * The data the stored config's query asks for (`visitorQuery` of the contract), or the bytes of
   * its JSON when the loader keeps them encoded. `widgetId` is for data kept per widget (Status);
   * `ownerId` is the widget's owner (its dashboard's), whose integrations it may use.
   */
  load(query: Q, widgetId: string, request: FastifyRequest, ownerId: string): Promise<unknown>;
}

type ServiceDefinition = WidgetTypeDefinition<string, never, ServiceDataSource<never, unknown>>;

/** A listed type with its data: the contract says what a config asks, the server half answers it. */
export interface DataEntry {
  definition: WidgetTypeDefinition;
  data: WidgetData<unknown>;
}

const isEncoded = (value: unknown): value is EncodedJson =>
  typeof value === "object" && value !== null && "json" in value && "gzip" in value;

/** Anyone may ask; visitors have no session, so they are counted per client address. */
const publicDataRoute: FastifyContextConfig = {
  access: "public",
  rateLimit: [
    {
      name: "public-data",
      key: (request) => request.ip,
      limit: 120,
      windowMs: 60_000,
      detail: "Too many requests for public widget data",
    },
  ],
};

const PublicWidgetParams = Type.Object({ id: Uuid, widgetId: Uuid });
const dataErrors = errorResponses(404, 429, 502, 504);
const publicDataErrors = { 400: Type.Ref(ProblemSchema), ...dataErrors };

/**
 * The routes of every widget type's data (DESIGN section 15): `GET /api/widgets/data?id=` for
 * readers, `GET /api/public/dashboards/:id/widgets/:widgetId/data` for visitors, both answering
 * `{data, fetchedAt, stale}`; and each type's older public route (`.../<publicRoute>`, the bare
 * answer), which the web app's public page reads.
 */
export async function widgetDataRoutes(app: FastifyInstance, ctx: AppContext, entries: readonly DataEntry[]) {
  const { db } = ctx.database;
  const byType = new Map(entries.map((entry) => [entry.definition.type, entry]));

  /** Loads what the widget's config asks for, noting how old the upstream answers behind it are. */
  async function load(
    entry: DataEntry,
    stored: { config: unknown; userId: string },
    widgetId: string,
    request: FastifyRequest,
    shown: "reader" | "visitor",
  ) {
    const definition = entry.definition as unknown as ServiceDefinition;
    const parsed = definition.parse(stored.config);
    const config = shown === "visitor" ? definition.publicConfig(parsed) : parsed;
    const query = found(
      definition.data.visitorQuery(config as never),
      `Data this ${definition.type} widget asks for`,
    );
    return ctx.upstream.observe(() => entry.data.load(query as never, widgetId, request, stored.userId));
  }

  function envelope(reply: FastifyReply, { value, fetchedAt, stale }: Observed<unknown>) {
    const data = isEncoded(value) ? value.json : JSON.stringify(value);
    const at = new Date(fetchedAt ?? ctx.clock()).toISOString();
    return sendJsonText(reply, `{"data":${data},"fetchedAt":"${at}","stale":${stale}}`);
  }

  const Envelope = Type.Object(
    {
      data: Type.Union(entries.map((entry) => entry.data.response)),
      fetchedAt: Type.String({
        format: "date-time",
        description: "When the oldest upstream answer behind `data` was fetched (now, for data kept here)",
      }),
      stale: Type.Boolean({
        description: "True when an upstream failed and an older answer is shown in its place",
      }),
    },
    { description: "The widget's data, as its type's own route answers it, under `data`" },
  );

  // `envelope` sends JSON text, so the Envelope is for the OpenAPI document only: compiled, it is
  // a serializer of the union of every type's response (one per route) that nothing calls, built
  // by the warm-up after each start, whose garbage holds the idle heap up until V8 next shrinks it.
  // The error statuses' problem bodies are plain objects that JSON.stringify writes the same way.
  const envelopeSerializer = () => JSON.stringify;

  app.get(
    "/api/widgets/data",
    {
      schema: {
        tags: ["Widgets"],
        summary: "The outside data a widget shows (feeds, forecast, prices, checks)",
        description: `For a widget on a dashboard the caller may read, of a type that shows outside data (${entries.map((e) => e.definition.type).join(", ")}). The request to the outside service is built from the widget's stored config only. 404 for any other widget, or while its config asks for nothing yet.`,
        querystring: Type.Object({ id: Uuid }),
        response: { 200: Envelope, ...dataErrors },
      },
      serializerCompiler: envelopeSerializer,
    },
    async (request, reply) => {
      const { id } = request.query as { id: string };
      const widget = found(await readableWidget(db, request.actor, id), "Widget");
      const entry = byType.get(widget.widgetType);
      if (!entry) {
        const type = widgetDefinition(widget.widgetType)?.type ?? widget.widgetType;
        throw notFoundBecause(`A ${type} widget shows no outside data of its own`);
      }
      return envelope(reply, await load(entry, widget, id, request, "reader"));
    },
  );

  app.get(
    "/api/public/dashboards/:id/widgets/:widgetId/data",
    {
      config: publicDataRoute,
      schema: {
        tags: ["Public"],
        summary: "The outside data of a widget on a public dashboard, without a session",
        description:
          "As GET /api/widgets/data, for a visitor: 404 unless the dashboard is public and the widget, on it, shows outside data and is not private. The config is read through the type's public view (a Weather location is rounded to about a kilometre).",
        security: [],
        params: PublicWidgetParams,
        response: { 200: Envelope, ...publicDataErrors },
      },
      serializerCompiler: envelopeSerializer,
    },
    async (request, reply) => {
      const { id, widgetId } = request.params as { id: string; widgetId: string };
      const widget = found(await readableWidget(db, VISITOR, widgetId, id), "Widget");
      const entry = found(byType.get(widget.widgetType), "Widget data");
      return envelope(reply, await load(entry, widget, widgetId, request, "visitor"));
    },
  );

  for (const entry of entries) {
    const { definition, data } = entry;
    if (definition.data.kind !== "service") continue;
    app.get(
      `/api/public/dashboards/:id/widgets/:widgetId/${definition.data.publicRoute}`,
      {
        config: publicDataRoute,
        schema: {
          tags: ["Public"],
          summary: data.summary,
          description: data.description,
          security: [],
          params: PublicWidgetParams,
          response: { 200: data.response, ...publicDataErrors },
        },
      },
      async (request, reply) => {
        const { id, widgetId } = request.params as { id: string; widgetId: string };
        const widget = await readableWidget(db, VISITOR, widgetId, id);
        const stored = found(widget?.widgetType === definition.type ? widget : null, "Widget");
        const { value } = await load(entry, stored, widgetId, request, "visitor");
        return isEncoded(value) ? sendEncodedJson(request, reply, value) : value;
      },
    );
  }
}
