import type { FastifyPluginAsyncTypebox } from "@fastify/type-provider-typebox";
import { Type } from "@sinclair/typebox";
import { BundledIcon, ICON_SLUG_PATTERN, IconSearchResult } from "../../../contract/icons.js";
import { httpUrl } from "../../../contract/widget-kit/fields.js";
import type { AppContext } from "../../../server/context.js";
import { badRequest, notFoundBecause } from "../../../server/http/errors.js";
import { errorResponses } from "../../../server/http/schemas.js";
import { createIconSet } from "./bundled.js";
import { createFaviconReader } from "./favicon.js";

/** A screenful of choices in the picker; more means typing more. */
const SEARCH_RESULTS = 30;
/** The set changes only with the package's version: browsers may keep an icon for a week. */
const BUNDLED_CACHE = "public, max-age=604800";

/** Icons for bookmarks, served from our origin. */
export const iconRoutes: FastifyPluginAsyncTypebox<AppContext> = async (app, ctx) => {
  const favicons = createFaviconReader(ctx.upstream);
  const iconSet = createIconSet();

  // The bundled set is the npm package's public data, the same for everyone: no session is
  // needed, so a public dashboard's visitors see the icons its owner chose.
  app.get(
    "/api/icons/bundled",
    {
      config: { access: "public" },
      schema: {
        tags: ["Icons"],
        summary: "Search the bundled icon set (Simple Icons) by name",
        description: `Up to ${SEARCH_RESULTS} icons whose name matches q: exact, then prefix, then a word's prefix, then anywhere. With a hint ("<host> <title>" of a bookmark, e.g. "jellyfin.home.lan:8096 Media"), the icon that names that app comes first and its id is answered as suggested (then also with an empty q).`,
        security: [],
        querystring: Type.Object({
          q: Type.Optional(Type.String({ maxLength: 100 })),
          hint: Type.Optional(Type.String({ maxLength: 400 })),
        }),
        response: { 200: IconSearchResult, ...errorResponses(400) },
      },
    },
    async (request, reply) => {
      const { q = "", hint = "" } = request.query;
      const result = await iconSet.search(q, hint, SEARCH_RESULTS);
      return reply.header("cache-control", BUNDLED_CACHE).send(result);
    },
  );

  app.get(
    "/api/icons/bundled/:slug",
    {
      config: { access: "public" },
      schema: {
        tags: ["Icons"],
        summary: "One icon of the bundled set: its title, brand colour and SVG path data",
        description:
          'The slug is the part of a bookmark\'s icon after "si:" ("si:jellyfin" → jellyfin). Path data only, never SVG markup: the web app draws it in its own <svg>.',
        security: [],
        params: Type.Object({ slug: Type.String({ pattern: ICON_SLUG_PATTERN }) }),
        response: { 200: BundledIcon, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      const icon = await iconSet.get(request.params.slug);
      if (!icon) throw notFoundBecause(`The bundled icon set has no icon named ${request.params.slug}`);
      return reply.header("cache-control", BUNDLED_CACHE).send(icon);
    },
  );

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
