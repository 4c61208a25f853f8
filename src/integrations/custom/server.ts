import { answeredJson, defineIntegrationServer } from "../../server/integrations/kit.js";

/** A custom API's secrets are its request headers, named as saved. */
export default defineIntegrationServer({
  headers: (secrets) => ({ ...secrets }),
  async test(call) {
    const json = answeredJson(await call({ what: "a test request" }), "The service");
    const shape = Array.isArray(json)
      ? `a list of ${json.length}`
      : json !== null && typeof json === "object"
        ? `an object of ${Object.keys(json).length} keys`
        : `a ${typeof json}`;
    return `Answered with JSON: ${shape}`;
  },
});
