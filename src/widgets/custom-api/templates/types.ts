import type { CustomApiConfig } from "../contract.js";

/**
 * A bundled recipe for a popular service: the integration it needs (a `custom` one, whose secrets
 * are the named request headers) and the widget's config, less the integration it will use.
 */
export interface CustomApiTemplate {
  id: string;
  /** The service's name as its makers write it. */
  service: string;
  description: string;
  integrationKind: "custom";
  /** The request headers that carry its secrets ("X-Api-Key", "Authorization"); none for an open API. */
  secretNames: readonly string[];
  /** What a secret header's value looks like, when it is more than the key ("Token <key>"). */
  secretHint?: string;
  /** Where the service's documentation describes the answer the queries read. */
  docs: string;
  /** Below the integration's address (the service's base address, as a person would type it). */
  path: string;
  config: Omit<CustomApiConfig, "integrationId" | "url" | "path">;
}

export const defineTemplate = (template: CustomApiTemplate) => template;
