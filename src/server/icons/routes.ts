import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { httpUrl } from "../../contract/widgets/fields.js";
import type { AppContext } from "../context.js";
import { badRequest, notFoundBecause } from "../http/errors.js";
import { errorResponses } from "../http/schemas.js";
import { createFaviconReader } from "./favicon.js";

/** Icons for bookmarks, served from our origin. */
export const iconRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const favicons = createFaviconReader(ctx.upstream);

  app.get(
    "/api/icons/site",
    {
      schema: {
        tags: ["Icons"],
        summary: "The favicon of the site an address belongs to (PNG, ICO, GIF, JPEG or WebP)",
        description:
          "Fetched by the server and cached per site, so browsers never ask third parties. SVG icons are not served. Addresses on private networks need FETCH_ALLOW_PRIVATE.",
        querystring: Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048 }) }),
        response: {
          200: Type.String({ format: "binary", description: "The icon's bytes" }),
          ...errorResponses(404, 502, 504),
        },
      },
    },
    async (request, reply) => {
      const address = httpUrl(request.query.url);
      if (!address)
        throw badRequest("url must be an http(s) address", [
          { path: "/url", message: "must be an http(s) address" },
        ]);
      const icon = await favicons.read(new URL(address));
      if (!icon) throw notFoundBecause(`${new URL(address).host} has no icon that can be shown`);
      // A Buffer is sent as it is (no serializer); the schema's string only documents the bytes.
      const body = icon.bytes as unknown as string;
      return reply.type(icon.type).header("cache-control", "private, max-age=86400").send(body);
    },
  );
};
