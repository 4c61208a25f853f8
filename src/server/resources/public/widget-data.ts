import { type Static, type TObject, type TSchema, Type } from "@sinclair/typebox";
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ProblemSchema, Uuid } from "../../../contract/resources.js";
import type { ServiceDataSource, WidgetTypeDefinition } from "../../../contract/widget-kit/define.js";
import type { Db } from "../../db/client.js";
import { found } from "../../http/errors.js";
import { readPublicWidgetConfig } from "./queries.js";

const PublicWidgetParams = Type.Object({ id: Uuid, widgetId: Uuid });
const publicDataErrors = {
  400: Type.Ref(ProblemSchema),
  404: Type.Ref(ProblemSchema),
  429: Type.Ref(ProblemSchema),
  502: Type.Ref(ProblemSchema),
  504: Type.Ref(ProblemSchema),
};

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

/** Live data a widget type shows on public dashboards, served by the module that owns the data. */
export interface PublicWidgetData<S extends TObject, Q> {
  /** The widget type's contract: its parser, public view and what a visitor's request asks for. */
  definition: WidgetTypeDefinition<string, S, ServiceDataSource<Static<S>, Q>>;
  summary: string;
  description: string;
  response: TSchema;
  /** Answers the query the widget's stored config makes, never parameters the visitor sends. */
  serve(query: Q, request: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

/**
 * Every public widget-data route is registered here, so each answers alike: anyone may ask,
 * within a budget per address, and only for a widget of that type that a visitor may see (404
 * otherwise). The stored config is read as the owner's app reads it (the type's parser, then its
 * public view), and the query it makes is handed to the module that owns the data.
 */
export function routePublicWidgetData<S extends TObject, Q>(
  app: FastifyInstance,
  db: Db,
  def: PublicWidgetData<S, Q>,
) {
  const { definition } = def;
  app.get(
    `/api/public/dashboards/:id/widgets/:widgetId/${definition.data.publicRoute}`,
    {
      config: publicDataRoute,
      schema: {
        tags: ["Public"],
        summary: def.summary,
        description: def.description,
        security: [],
        params: PublicWidgetParams,
        response: { 200: def.response, ...publicDataErrors },
      },
    },
    async (request, reply) => {
      const { id, widgetId } = request.params as { id: string; widgetId: string };
      const stored = found(await readPublicWidgetConfig(db, id, widgetId, definition.type), "Widget");
      const shown = definition.publicConfig(definition.parse(stored));
      const query = found(
        definition.data.visitorQuery(shown),
        `Data this ${definition.type} widget asks for`,
      );
      return def.serve(query, request, reply);
    },
  );
}
