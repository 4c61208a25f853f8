import { Type } from "@sinclair/typebox";
import { defineSource } from "../source.js";

/**
 * An OpenID provider's discovery document (OpenID Connect Discovery 1.0 section 3): only what
 * single sign-on cannot start without is checked; better-auth reads the rest itself.
 */
export const OidcDiscovery = defineSource(Type.Object({ issuer: Type.String(), jwks_uri: Type.String() }));
