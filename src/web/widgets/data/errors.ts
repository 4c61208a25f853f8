import { PROVIDER_LABELS, type Provider } from "../../../contract/providers";
import { ApiError, describeError, retryHint } from "../../lib/api";

/** The outside service a data widget's answers come from. */
export type Upstream = "exchange" | "weather" | "feed" | "status" | Provider;

interface Phrases {
  unreachable: string;
  slow: string;
  busy: string;
}

function phrases(upstream: Upstream): Phrases {
  if (upstream === "exchange")
    return {
      unreachable: "Can't reach the exchange.",
      slow: "The exchange didn't answer in time.",
      busy: "The exchange is busy.",
    };
  if (upstream === "weather")
    return {
      unreachable: "Weather service unavailable.",
      slow: "The weather service didn't answer in time.",
      busy: "The weather service is busy.",
    };
  if (upstream === "feed")
    return {
      unreachable: "Can't reach the feed.",
      slow: "The feed's site didn't answer in time.",
      busy: "The server is busy fetching feeds.",
    };
  if (upstream === "status")
    return {
      unreachable: "Can't load the checks.",
      slow: "The checks didn't load in time.",
      busy: "The server is busy.",
    };
  const label = PROVIDER_LABELS[upstream];
  return {
    unreachable: `Can't reach ${label}.`,
    slow: `${label} didn't answer in time.`,
    busy: `${label} is busy.`,
  };
}

/**
 * Why a data widget has nothing new, named from the API's problem `code`: the outside service
 * failed or timed out, the server is queueing requests to it, or too many were asked; with the
 * wait the server gave (Retry-After) when it gave one.
 */
export function describeDataError(error: unknown, upstream: Upstream): string {
  if (!(error instanceof ApiError)) return describeError(error);
  const say = phrases(upstream);
  switch (error.code) {
    case "upstream_failed":
      return `${say.unreachable} ${retryHint(error)}`;
    case "upstream_timeout":
      return `${say.slow} ${retryHint(error)}`;
    case "service_unavailable":
      return `${say.busy} ${retryHint(error)}`;
    default:
      return describeError(error);
  }
}
