/** The spec's provider values; nothing else is ever accepted where a provider is expected. */
export const PROVIDERS = ["suite", "codehost", "notes"] as const;
export type Provider = (typeof PROVIDERS)[number];

/** Human names for UI labels; the API only ever speaks the spec's values. */
export const PROVIDER_LABELS: Record<Provider, string> = {
  suite: "Google",
  codehost: "GitHub",
  notes: "Notion",
};

export function isProvider(value: unknown): value is Provider {
  return typeof value === "string" && (PROVIDERS as readonly string[]).includes(value);
}
