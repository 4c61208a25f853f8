import type { UpstreamResponse } from "../upstream/fetch.js";

/** An integration as the server uses it: its secrets decrypted, never answered or logged. */
export interface UsableIntegration {
  id: string;
  kind: string;
  name: string;
  /** The base address, as saved (`webcal:` already read as https). */
  url: string;
  /** null for an instance integration (every user may use it). */
  ownerId: string | null;
  allowPrivate: boolean;
  skipTlsVerify: boolean;
  /** Whether an admin lets widgets act through it (DESIGN section 15 actions). */
  allowActions: boolean;
  caCertificate: string | null;
  secrets: Readonly<Record<string, string>>;
}

/** One call to an integration's service. */
export interface IntegrationRequest {
  /**
   * Appended to the integration's address (`/api/states`, `status-page/home`): the origin never
   * changes, so a saved secret goes nowhere but the service it was saved for.
   */
  path?: string;
  method?: "GET" | "POST" | "HEAD" | "DELETE";
  /** Query parameters added to the address. */
  query?: Record<string, string>;
  /** Headers beside the ones the kind makes from the secrets. */
  headers?: Record<string, string>;
  body?: string | URLSearchParams;
  /** What was asked for, for error details ("the states", "the status page"). */
  what: string;
  /** A deadline shorter than the configured one; never longer. */
  timeoutMs?: number;
}

/** The integrations of the app: who may use which, and calls to their services. */
export interface Integrations {
  /**
   * The integration `id` as the user `userId` may use it: their own or the instance's. Anything
   * else (another user's personal one, an unknown id, another kind than `kind`) is 404.
   */
  usable(userId: string, id: string, kind?: string): Promise<UsableIntegration>;
  /**
   * One call to the integration's service: its address plus `path`, the kind's auth headers
   * from its secrets, its TLS settings, private addresses only when it allows them (re-checked
   * at every connection), redirects answered as errors that name where they lead. The status
   * comes back for the caller to judge; network failures are 502, deadlines 504.
   */
  call(integration: UsableIntegration, request: IntegrationRequest): Promise<UpstreamResponse>;
}
