import { arrIntegrationServer } from "../../server/integrations/arr.js";

/** Radarr speaks Sonarr's API v3; its status tells the two apart. */
export default arrIntegrationServer("Radarr", "Sonarr");
