import { arrIntegrationServer } from "../../server/integrations/arr.js";

/** Sonarr speaks Radarr's API v3; its status tells the two apart. */
export default arrIntegrationServer("Sonarr", "Radarr");
