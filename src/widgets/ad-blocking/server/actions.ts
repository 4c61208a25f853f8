import { Type } from "@sinclair/typebox";
import { notFoundBecause } from "../../../server/http/errors.js";
import { requireActions } from "../../../server/integrations/service.js";
import type { WidgetAction } from "../../../server/widgets/kit.js";
import { type AdBlockingActionResult, type AdBlockingConfig, PAUSE_MINUTES } from "../contract.js";
import { usableBlocker } from "./connection.js";
import type { BlockingChange } from "./reading.js";
import { unlessRefused } from "./refusals.js";
import { clientOf, forgetAnswers } from "./source.js";

const PauseInput = Type.Object(
  { minutes: Type.Union(PAUSE_MINUTES.map((m) => Type.Literal(m))) },
  { additionalProperties: false },
);

const LABELS = { pihole: "Pi-hole", adguard: "AdGuard Home" } as const;

/** Until when, in words for the audit log: "until 14:35 UTC". */
const untilWords = (iso: string | null) => (iso ? ` until ${iso.slice(11, 16)} UTC` : "");

/**
 * Changes blocking through the widget owner's integration, when an admin has allowed actions on
 * it; answers the state after the change and forgets the kept answers, so the next read shows it.
 */
function blockingAction(change: (input: unknown) => BlockingChange, done: string): WidgetAction["run"] {
  return async ({ ctx, config, ownerId, input }) => {
    const { integrationId } = config as AdBlockingConfig;
    if (!integrationId) throw notFoundBecause("This widget has no Pi-hole or AdGuard Home integration");
    const integration = await usableBlocker(ctx, ownerId, integrationId);
    requireActions(integration);
    const what = change(input);
    const result: AdBlockingActionResult = await unlessRefused(ctx, integration, () =>
      clientOf(ctx, integration).change(what),
    );
    forgetAnswers(ctx, integration);
    const minutes = what === "resume" ? "" : ` for ${what.pauseMinutes} min`;
    return {
      detail: `${done}${minutes} through ${integration.name} (${LABELS[integration.kind]}): ${result.state}${untilWords(result.pausedUntil)}`,
      result,
    };
  };
}

/** `pause`: blocking off for 1, 5, 10, 30 or 60 minutes; the service turns it back on by itself. */
export const pauseAction: WidgetAction = {
  input: PauseInput,
  run: blockingAction(
    (input) => ({ pauseMinutes: (input as { minutes: number }).minutes }),
    "Paused blocking",
  ),
};

/** `resume`: blocking on again now, whether paused or turned off. */
export const resumeAction: WidgetAction = {
  run: blockingAction(() => "resume", "Resumed blocking"),
};
