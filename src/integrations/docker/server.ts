import { Type } from "@sinclair/typebox";
import { defineIntegrationServer } from "../../server/integrations/kit.js";
import { defineSource, jsonOf } from "../../server/upstream/source.js";
import { apiPath, ContainerList, dockerFailure, pingEngine } from "./engine.js";

const EngineVersion = defineSource(Type.Object({ Version: Type.String() }));

/**
 * Docker has no credentials of its own: a socket proxy or a Unix socket is guarded by who can
 * reach it, the TLS port by the client certificate the core sends from the `tlsCertificate` and
 * `tlsKey` secrets. The test pings, reads the version and lists one container, so a proxy
 * without CONTAINERS=1 is caught here rather than in a widget.
 */
export default defineIntegrationServer({
  headers: () => ({}),
  async test(call) {
    const label = "Docker";
    const { apiVersion, engine } = await pingEngine(call, label);
    const version = await call({ path: apiPath(apiVersion, "/version"), what: "its version" });
    if (version.status !== 200) throw dockerFailure(version, label, "read");
    const about = EngineVersion.parse(jsonOf(version), version);
    const list = await call({
      path: apiPath(apiVersion, "/containers/json"),
      query: { all: "true", limit: "1" },
      what: "the containers",
    });
    if (list.status !== 200) throw dockerFailure(list, label, "read");
    ContainerList.parse(jsonOf(list), list);
    return `${engine} ${about.Version.slice(0, 40)} (API ${apiVersion}); containers can be read`;
  },
});
