import type { StatusState, StatusTargetResult } from "../../lib/data-api";

/** What a target's row says: the server's last check, or that it has not checked yet. */
export type Health = "up" | "down" | "unknown" | "not-allowed";

export function healthOf(state: StatusState | null): Health {
  if (!state) return "unknown";
  if (state.error?.code === "address_not_allowed") return "not-allowed";
  return state.up ? "up" : "down";
}

export const HEALTH_LABELS: Record<Health, string> = {
  up: "Up",
  down: "Down",
  unknown: "Unknown",
  "not-allowed": "Not allowed",
};

/** Why a target is down, in a few words: "HTTP 503", "No answer", "Unreachable". */
export function downReason(state: StatusState): string | null {
  if (state.up) return null;
  if (state.httpStatus !== null) return `HTTP ${state.httpStatus}`;
  if (state.error?.code === "timeout") return "No answer";
  if (state.error?.code === "unreachable") return "Unreachable";
  return null;
}

export function formatLatency(ms: number | null): string | null {
  if (ms === null) return null;
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The rows to show: the config's checks, in its order and with its names, each with the state
 * the server answered for it. The answer may predate a save that is still on its way (a target
 * just added): such a target is simply not checked yet.
 */
export function rowsOf(
  checks: readonly { id: string; name: string; url: string }[],
  answer: readonly StatusTargetResult[],
): StatusTargetResult[] {
  const byId = new Map(answer.map((a) => [a.id, a]));
  return checks.map((target) => {
    const found = byId.get(target.id);
    return { ...target, state: found && found.url === target.url ? found.state : null };
  });
}
