// The baseline: a bare Fastify route that answers the same JSON bytes with no session, no query.
// BARE_BODY_FILE is the widgets answer; BARE_DASHBOARDS_FILE (optional) the dashboards list. The
// bytes are sent as Buffers, the cheapest way to send them (a string body is copied together with
// the headers on every answer), as the server sends its large cached answers.
import { readFileSync } from "node:fs";
import Fastify from "fastify";

const body = readFileSync(process.env.BARE_BODY_FILE!);
const dashboards = process.env.BARE_DASHBOARDS_FILE
  ? readFileSync(process.env.BARE_DASHBOARDS_FILE)
  : Buffer.from("[]");
const app = Fastify({ logger: false });
app.get("/healthz", async () => ({ status: "ok" }));
app.get("/api/widgets", async (_request, reply) => reply.type("application/json").send(body));
app.get("/api/dashboards", async (_request, reply) => reply.type("application/json").send(dashboards));
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" });
process.on("SIGTERM", () => void app.close().then(() => process.exit(0)));
