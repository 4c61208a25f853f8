import { asHttpUrl, isRecord } from "../../lib/parse";

export interface FrameConfig {
  /** An http(s) URL, or "" when none is set. */
  url: string;
}

/**
 * Scripts may run, but never together with allow-same-origin: that pair would let the framed page
 * remove its own sandbox. Without it the page runs in an opaque origin and cannot reach ours.
 */
export const FRAME_SANDBOX =
  "allow-scripts allow-forms allow-popups allow-popups-to-escape-sandbox allow-presentation";

export const defaultFrameConfig = (): FrameConfig => ({ url: "" });

export function parseFrameConfig(raw: unknown): FrameConfig {
  if (!isRecord(raw)) return defaultFrameConfig();
  return { url: asHttpUrl(raw.url) ?? "" };
}
