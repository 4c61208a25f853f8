import type { ProblemError } from "../http/errors.js";

/**
 * Marks a failure as the service refusing the saved credentials (not a network fault), so a
 * widget can stop asking with them: each refused sign-in counts towards the service's limits.
 * A registered symbol, so the mark survives however the module is bundled or loaded.
 */
const REFUSED = Symbol.for("tessera.integrations.credentialsRefused");

export function credentialsRefused(error: ProblemError): ProblemError {
  Object.defineProperty(error, REFUSED, { value: true });
  return error;
}

export function isCredentialsRefused(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[REFUSED] === true;
}
